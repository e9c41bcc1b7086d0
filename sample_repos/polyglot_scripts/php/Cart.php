<?php

declare(strict_types=1);

namespace App\Cart;

use InvalidArgumentException;
use JsonSerializable;

/**
 * Server-side cart for the legacy PHP checkout (still serving the B2B
 * portal). Prices are integer cents; tax is added at order time, not here.
 */

/**
 * Parse a price typed by a sales rep ("12,50", "12.50", "1.234,50") into cents.
 */
function parse_price(string $input): int
{
    $clean = preg_replace('/[^\d,.\-]/', '', trim($input));
    if ($clean === '' || $clean === null) {
        throw new InvalidArgumentException("Not a price: {$input}");
    }
    // Whichever separator comes last is the decimal separator.
    $lastComma = strrpos($clean, ',');
    $lastDot = strrpos($clean, '.');
    $decimalSep = ($lastComma !== false && ($lastDot === false || $lastComma > $lastDot)) ? ',' : '.';
    $thousandsSep = $decimalSep === ',' ? '.' : ',';
    $normalized = str_replace([$thousandsSep, $decimalSep], ['', '.'], $clean);

    return (int) round(((float) $normalized) * 100);
}

/**
 * Format cents for display in the portal, German style.
 */
function format_cents(int $cents, string $currency = 'EUR'): string
{
    return number_format($cents / 100, 2, ',', '.') . ' ' . $currency;
}

interface PriceRule
{
    /** Return the discount in cents for the given cart (0 if not applicable). */
    public function discountFor(Cart $cart): int;
}

/**
 * Tiered volume discount: the more units of one SKU, the higher the rate.
 */
final class VolumeDiscount implements PriceRule
{
    /** @param array<int, int> $tiers min quantity => percent */
    public function __construct(private array $tiers = [10 => 3, 50 => 5, 200 => 8])
    {
        krsort($this->tiers);
    }

    public function discountFor(Cart $cart): int
    {
        $discount = 0;
        foreach ($cart->lines() as $line) {
            foreach ($this->tiers as $minQty => $percent) {
                if ($line['quantity'] >= $minQty) {
                    $discount += intdiv($line['quantity'] * $line['unit_cents'] * $percent, 100);
                    break;
                }
            }
        }
        return $discount;
    }
}

class Cart implements JsonSerializable
{
    public const MAX_LINES = 100;

    /** @var array<string, array{sku: string, name: string, quantity: int, unit_cents: int}> */
    private array $lines = [];

    /** @var PriceRule[] */
    private array $rules = [];

    public function __construct(private readonly string $customerId, private readonly string $currency = 'EUR')
    {
    }

    public function addItem(string $sku, string $name, int $quantity, int $unitCents): void
    {
        if ($quantity <= 0 || $unitCents < 0) {
            throw new InvalidArgumentException('Quantity must be positive and price non-negative');
        }
        if (isset($this->lines[$sku])) {
            $this->lines[$sku]['quantity'] += $quantity;
            return;
        }
        if (count($this->lines) >= self::MAX_LINES) {
            throw new \OverflowException('Cart is limited to ' . self::MAX_LINES . ' lines');
        }
        $this->lines[$sku] = ['sku' => $sku, 'name' => $name, 'quantity' => $quantity, 'unit_cents' => $unitCents];
    }

    public function removeItem(string $sku): bool
    {
        if (!isset($this->lines[$sku])) {
            return false;
        }
        unset($this->lines[$sku]);
        return true;
    }

    public function addRule(PriceRule $rule): self
    {
        $this->rules[] = $rule;
        return $this;
    }

    /** @return list<array{sku: string, name: string, quantity: int, unit_cents: int}> */
    public function lines(): array
    {
        return array_values($this->lines);
    }

    public function subtotal(): int
    {
        return array_sum(array_map(
            static fn (array $l): int => $l['quantity'] * $l['unit_cents'],
            $this->lines
        ));
    }

    /**
     * Sum of all rule discounts, capped so the total never goes negative.
     */
    public function discount(): int
    {
        $total = 0;
        foreach ($this->rules as $rule) {
            $total += $rule->discountFor($this);
        }
        return min($total, $this->subtotal());
    }

    public function total(): int
    {
        return $this->subtotal() - $this->discount();
    }

    /**
     * Merge a cart the customer built while logged out into this one,
     * keeping the higher quantity for SKUs present in both.
     */
    public function mergeGuestCart(Cart $guest): void
    {
        foreach ($guest->lines as $sku => $line) {
            if (isset($this->lines[$sku])) {
                $this->lines[$sku]['quantity'] = max($this->lines[$sku]['quantity'], $line['quantity']);
            } elseif (count($this->lines) < self::MAX_LINES) {
                $this->lines[$sku] = $line;
            }
        }
    }

    public function jsonSerialize(): array
    {
        return [
            'customer' => $this->customerId,
            'currency' => $this->currency,
            'lines' => $this->lines(),
            'subtotal' => $this->subtotal(),
            'discount' => $this->discount(),
            'total' => $this->total(),
            'total_display' => format_cents($this->total(), $this->currency),
        ];
    }
}
