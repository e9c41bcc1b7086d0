package Shop::PriceList;

# Price lists for the shop's back office: loads the supplier's tab-separated price file,
# applies the volume tiers and the customer group's discount, and renders the quote lines
# the sales team pastes into their emails.

use strict;
use warnings;
use utf8;

use Carp qw(croak);
use List::Util qw(sum0 max);
use POSIX qw(floor);

our $VERSION = '0.3.1';

=head1 NAME

Shop::PriceList - net prices per customer group, with volume tiers

=head1 SYNOPSIS

    my $list  = Shop::PriceList->load('prices.tsv');
    my $quote = $list->quote('retail', [ [ 'SKU-1001', 12 ], [ 'SKU-2040', 3 ] ]);

=cut

my %GROUP_DISCOUNT = (
    retail    => 0,
    trade     => 0.12,
    wholesale => 0.20,
);

# The currency sign goes after the amount, as the German invoices write it.
my $CURRENCY = '€';

=head2 load($path)

Reads a price file: one line per SKU, C<sku>, C<description> and C<unit_cents>, tab-separated.
Blank lines and lines starting with C<#> are skipped.

=cut

sub load {
    my ($class, $path) = @_;
    open my $fh, '<:encoding(UTF-8)', $path or croak "cannot read $path: $!";
    my %items;
    while (my $line = <$fh>) {
        chomp $line;
        next if $line =~ /^\s*(?:#|$)/;
        my ($sku, $description, $cents) = split /\t/, $line;
        croak "bad price for $sku at line $." unless defined $cents && $cents =~ /^\d+$/;
        $items{$sku} = { description => $description, unit_cents => $cents };
    }
    close $fh;
    return bless { items => \%items, tiers => [] }, $class;
}

sub add_tier {
    my ($self, $tier) = @_;
    push @{ $self->{tiers} }, $tier;
    @{ $self->{tiers} } = sort { $b->min_qty <=> $a->min_qty } @{ $self->{tiers} };
    return $self;
}

sub item {
    my ($self, $sku) = @_;
    return $self->{items}{$sku} // croak "unknown SKU $sku";
}

=head2 quote($group, \@lines)

Prices each C<[sku, qty]> line for a customer group and returns the quote: its lines,
the net total, the VAT and the gross total, all in cents, and the text to paste.

=cut

sub quote {
    my ($self, $group, $lines, %opt) = @_;
    my $vat_rate = $opt{vat_rate} // 0.19;
    croak "unknown customer group '$group'" unless exists $GROUP_DISCOUNT{$group};
    my $group_discount = $GROUP_DISCOUNT{$group};

    # A lexical helper: the best tier a quantity reaches, if any.
    my sub tier_for {
        my ($qty) = @_;
        for my $tier (@{ $self->{tiers} }) {
            return $tier if $qty >= $tier->min_qty;
        }
        return;
    }

    my @priced;
    my %seen;
    for my $line (@$lines) {
        my ($sku, $qty) = @$line;
        if ($qty <= 0) {
            warn "skipping $sku: quantity $qty\n";
            next;
        }
        if ($seen{$sku}++) {
            warn "$sku appears twice; the lines are priced separately\n";
        }
        my $item = $self->item($sku);
        my $unit = $item->{unit_cents};

        my $tier = tier_for($qty);
        my $tier_discount = $tier ? $tier->discount : 0;
        # Discounts stack multiplicatively, never additively: 10 % and 20 % are 28 %.
        my $factor = (1 - $tier_discount) * (1 - $group_discount);
        my $net_unit = floor($unit * $factor + 0.5);

        push @priced, {
            sku         => $sku,
            description => $item->{description},
            qty         => $qty,
            unit_cents  => $net_unit,
            line_cents  => $net_unit * $qty,
            tier        => $tier ? $tier->name : '',
        };
    }

    croak 'nothing to quote' unless @priced;

    my $net = sum0(map { $_->{line_cents} } @priced);
    my $vat = floor($net * $vat_rate + 0.5);
    my $width = max(map { length $_->{description} } @priced);

    my @text;
    for my $p (@priced) {
        push @text, sprintf(
            '%-*s %4d x %10s = %10s%s',
            $width, $p->{description}, $p->{qty},
            format_cents($p->{unit_cents}), format_cents($p->{line_cents}),
            $p->{tier} ? " ($p->{tier})" : '',
        );
    }
    push @text, sprintf('%*s %10s', $width + 20, 'Netto', format_cents($net));
    push @text, sprintf('%*s %10s', $width + 20, 'MwSt.', format_cents($vat));
    push @text, sprintf('%*s %10s', $width + 20, 'Brutto', format_cents($net + $vat));

    return {
        lines       => \@priced,
        net_cents   => $net,
        vat_cents   => $vat,
        gross_cents => $net + $vat,
        text        => join("\n", @text) . "\n",
    };
}

# 123456 cents is "1.234,56 €".
sub format_cents {
    my ($cents) = @_;
    my $euros = sprintf '%.2f', $cents / 100;
    $euros =~ tr/./,/;
    1 while $euros =~ s/^(\d+)(\d{3})/$1.$2/;
    return "$euros $CURRENCY";
}

package Shop::PriceList::Tier {
    # A volume tier: from C<min_qty> pieces on, C<discount> off the unit price.

    sub new {
        my ($class, %args) = @_;
        croak 'a tier needs min_qty' unless $args{min_qty};
        return bless { name => "ab $args{min_qty} Stück", discount => 0, %args }, $class;
    }

    sub min_qty  { $_[0]{min_qty} }
    sub discount { $_[0]{discount} }
    sub name     { $_[0]{name} }
}

1;
