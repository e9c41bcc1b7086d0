# frozen_string_literal: true

# Daily sales summary that ops gets in Slack every morning.
#
# Input is the pipe-separated order log the checkout service appends to
# (one order line per row); output is a fixed-width text block.
#
#   ruby report.rb /var/log/shop/orders-2024-05-13.log

require 'date'

module Reports
  OrderLine = Struct.new(:placed_on, :order_id, :sku, :quantity, :cents, :status, keyword_init: true) do
    def refunded?
      status == 'refunded'
    end

    def revenue_cents
      refunded? ? 0 : quantity * cents
    end
  end

  # Helpers for turning numbers into the strings the report shows.
  module Formatting
    module_function

    def money(cents, currency = 'EUR')
      whole, frac = cents.abs.divmod(100)
      grouped = whole.to_s.reverse.scan(/\d{1,3}/).join('.').reverse
      format('%<sign>s%<whole>s,%<frac>02d %<cur>s',
             sign: cents.negative? ? '-' : '', whole: grouped, frac: frac, cur: currency)
    end

    def percent(part, total)
      return '  n/a' if total.zero?

      format('%5.1f%%', 100.0 * part / total)
    end

    # Tiny horizontal bar for the per-day chart; width is scaled to max.
    def bar(value, max, width = 24)
      return '' if max.zero?

      '█' * (value * width / max)
    end
  end

  # Reads the order log, skipping malformed rows but remembering them.
  class OrderLog
    attr_reader :lines, :skipped

    def initialize
      @lines = []
      @skipped = []
    end

    def self.load(path)
      log = new
      File.foreach(path).with_index(1) { |row, number| log.parse_row(row, number) }
      log
    end

    def parse_row(row, number)
      return if row.strip.empty? || row.start_with?('#')

      date, order_id, sku, qty, cents, status = row.chomp.split('|', -1)
      @lines << OrderLine.new(
        placed_on: Date.iso8601(date), order_id: order_id, sku: sku,
        quantity: Integer(qty), cents: Integer(cents), status: status.to_s.strip
      )
    rescue ArgumentError, TypeError => e
      @skipped << [number, e.message]
    end
  end

  class Summary
    include Formatting

    def initialize(lines, currency: 'EUR')
      @lines = lines
      @currency = currency
    end

    def revenue_cents
      @lines.sum(&:revenue_cents)
    end

    def order_count
      @lines.map(&:order_id).uniq.size
    end

    # Revenue per calendar day, oldest first.
    def by_day
      @lines.group_by(&:placed_on)
            .transform_values { |rows| rows.sum(&:revenue_cents) }
            .sort.to_h
    end

    # Best sellers by revenue; ties broken by units sold.
    def top_products(limit = 5)
      @lines.reject(&:refunded?)
            .group_by(&:sku)
            .map { |sku, rows| [sku, rows.sum(&:revenue_cents), rows.sum(&:quantity)] }
            .sort_by { |_sku, revenue, units| [-revenue, -units] }
            .first(limit)
    end

    # Share of order lines that were refunded, as a fraction of all lines.
    def refund_ratio
      return 0.0 if @lines.empty?

      @lines.count(&:refunded?).fdiv(@lines.size)
    end

    def average_basket_cents
      orders = order_count
      orders.zero? ? 0 : revenue_cents / orders
    end

    def render
      days = by_day
      peak = days.values.max || 0
      out = []
      out << "Sales summary (#{days.keys.first} .. #{days.keys.last})"
      out << "Revenue       #{money(revenue_cents, @currency)}"
      out << "Orders        #{order_count}"
      out << "Avg. basket   #{money(average_basket_cents, @currency)}"
      out << "Refunded      #{percent(@lines.count(&:refunded?), @lines.size)}"
      out << ''
      days.each do |day, cents|
        out << format('%<d>s %<m>14s %<b>s', d: day.strftime('%a %d.%m.'), m: money(cents, @currency), b: bar(cents, peak))
      end
      out << ''
      out << 'Top products'
      top_products.each_with_index do |(sku, revenue, units), idx|
        out << format('%<i>2d. %<s>-14s %<u>5d pcs %<r>14s', i: idx + 1, s: sku, u: units, r: money(revenue, @currency))
      end
      out.join("\n")
    end
  end

  def self.run(path, io: $stdout)
    log = OrderLog.load(path)
    io.puts Summary.new(log.lines).render
    warn "#{log.skipped.size} malformed rows skipped" unless log.skipped.empty?
  end
end

Reports.run(ARGV.fetch(0)) if $PROGRAM_NAME == __FILE__
