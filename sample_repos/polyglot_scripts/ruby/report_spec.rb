# frozen_string_literal: true

require_relative 'report'

RSpec.describe Reports do
  def line(day, order, sku, qty, cents, status = 'paid')
    Reports::OrderLine.new(placed_on: Date.iso8601(day), order_id: order, sku: sku,
                           quantity: qty, cents: cents, status: status)
  end

  let(:lines) do
    [
      line('2024-05-13', 'A1', 'TEA-01', 2, 890),
      line('2024-05-13', 'A1', 'MUG-02', 1, 1450),
      line('2024-05-14', 'B7', 'TEA-01', 1, 890, 'refunded'),
      line('2024-05-14', 'C3', 'POT-03', 1, 5900)
    ]
  end

  describe Reports::Formatting do
    include described_class

    it 'groups thousands with dots and uses a decimal comma' do
      expect(money(1_234_567)).to eq('12.345,67 EUR')
      expect(money(-5, 'USD')).to eq('-0,05 USD')
    end

    it 'shows n/a for a share of nothing' do
      expect(percent(3, 0)).to eq('  n/a')
    end
  end

  describe Reports::OrderLog do
    it 'skips malformed rows and remembers their numbers' do
      log = described_class.new
      log.parse_row("2024-05-13|A1|TEA-01|2|890|paid\n", 1)
      log.parse_row("2024-05-13|A1|TEA-01|two|890|paid\n", 2)
      log.parse_row("# comment\n", 3)
      expect(log.lines.size).to eq(1)
      expect(log.skipped.map(&:first)).to eq([2])
    end
  end

  describe Reports::Summary do
    subject(:summary) { described_class.new(lines) }

    it 'leaves refunded lines out of the revenue' do
      expect(summary.revenue_cents).to eq(2 * 890 + 1450 + 5900)
    end

    it 'ranks best sellers by revenue, then by units' do
      expect(summary.top_products(2).map(&:first)).to eq(%w[POT-03 TEA-01])
    end

    it 'counts a refund ratio over all lines' do
      expect(summary.refund_ratio).to eq(0.25)
    end

    context 'when the log is empty' do
      subject(:summary) { described_class.new([]) }

      it 'reports no basket and no refunds instead of dividing by zero' do
        expect(summary.average_basket_cents).to eq(0)
        expect(summary.refund_ratio).to eq(0.0)
      end
    end
  end
end
