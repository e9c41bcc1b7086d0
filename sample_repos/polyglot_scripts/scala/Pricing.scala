package shop.pricing

import java.time.{DayOfWeek, LocalDate}
import scala.math.BigDecimal.RoundingMode

/** Prices of the B2B portal's nightly export: list price, customer tier, then promotions.
  *
  * Amounts are in euros with two decimals; every rule rounds half-even, as the accounting
  * team's spreadsheet does, so the export and the invoices agree to the cent.
  */
sealed trait Rule {
  def name: String
  def applies(line: Line, on: LocalDate): Boolean
  def adjust(amount: BigDecimal): BigDecimal
}

/** One line of an order as the export sees it. */
case class Line(sku: String, quantity: Int, unitPrice: BigDecimal, category: String) {
  def gross: BigDecimal = unitPrice * quantity
}

enum Tier(val discountPercent: Int) {
  case Standard extends Tier(0)
  case Silver extends Tier(3)
  case Gold extends Tier(7)

  def factor: BigDecimal = BigDecimal(100 - discountPercent) / 100
}

/** A percentage off a category, on the weekdays the promotion runs. */
case class CategoryPromotion(category: String, percent: Int, days: Set[DayOfWeek]) extends Rule {
  val name = s"$percent% off $category"

  def applies(line: Line, on: LocalDate): Boolean =
    line.category == category && days.contains(on.getDayOfWeek)

  def adjust(amount: BigDecimal): BigDecimal = amount * (100 - percent) / 100
}

/** Buy `every` units of a SKU, pay for one less. */
case class VolumeFreebie(sku: String, every: Int) extends Rule {
  val name = s"$every for ${every - 1} on $sku"

  private var lastQuantity = 0

  def applies(line: Line, on: LocalDate): Boolean = {
    lastQuantity = line.quantity
    line.sku == sku && line.quantity >= every
  }

  def adjust(amount: BigDecimal): BigDecimal = {
    val free = lastQuantity / every
    amount * (lastQuantity - free) / lastQuantity
  }
}

object Pricing {
  val VatRate: BigDecimal = BigDecimal("0.20")

  /** Rounds the way accounting does. */
  val roundCents = (amount: BigDecimal) => amount.setScale(2, RoundingMode.HALF_EVEN)

  /** Net price of one line: tier first, then every promotion that applies, in order. */
  def linePrice(line: Line, tier: Tier, rules: Seq[Rule], on: LocalDate): BigDecimal = {
    def applyAll(amount: BigDecimal, pending: List[Rule]): BigDecimal = pending match {
      case Nil => amount
      case rule :: rest if rule.applies(line, on) => applyAll(rule.adjust(amount), rest)
      case _ :: rest => applyAll(amount, rest)
    }

    val afterTier = line.gross * tier.factor
    roundCents(applyAll(afterTier, rules.toList))
  }

  def orderTotal(lines: Seq[Line], tier: Tier, rules: Seq[Rule], on: LocalDate): BigDecimal = {
    val net = lines.map(line => linePrice(line, tier, rules, on)).sum
    roundCents(net * (1 + VatRate))
  }

  /** The rules that changed a line's price, for the "why this price" column. */
  def explain(line: Line, rules: Seq[Rule], on: LocalDate): Seq[String] =
    rules.filter(_.applies(line, on)).map(_.name)

  object Defaults {
    val weekendBakery = CategoryPromotion("bakery", 10, Set(DayOfWeek.SATURDAY, DayOfWeek.SUNDAY))
    val coffeeBeans = VolumeFreebie("COF-1KG", 6)

    def all: Seq[Rule] = Seq(weekendBakery, coffeeBeans)
  }
}

extension (amount: BigDecimal) {
  def euros: String = f"$amount%.2f EUR"
  def withVat: BigDecimal = Pricing.roundCents(amount * (1 + Pricing.VatRate))
}

@main def exportSample(): Unit = {
  val today = LocalDate.now()
  val lines = Seq(
    Line("COF-1KG", 12, BigDecimal("14.90"), "coffee"),
    Line("BRD-SOUR", 3, BigDecimal("4.20"), "bakery")
  )
  val total = Pricing.orderTotal(lines, Tier.Silver, Pricing.Defaults.all, today)
  println(s"order total: ${total.euros}")
}
