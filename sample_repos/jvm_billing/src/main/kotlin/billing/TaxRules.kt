package billing

import java.math.BigDecimal
import java.math.RoundingMode
import java.time.LocalDate

/**
 * VAT rules for invoices issued by our German entity.
 *
 * The rules cover the cases we actually bill: domestic sales, intra-EU B2B
 * sales under the reverse-charge mechanism, EU B2C sales of digital goods
 * under the One-Stop-Shop scheme, and exports outside the EU (zero-rated).
 * Rates are looked up per destination country, product category and date,
 * because rates change and invoices must use the rate valid on the supply
 * date.
 */

enum class ProductCategory { STANDARD, FOOD, BOOKS, DIGITAL, MEDICAL }

enum class TaxTreatment { DOMESTIC, REVERSE_CHARGE, OSS, EXPORT }

data class TaxRate(
    val country: String,
    val category: ProductCategory,
    val percent: BigDecimal,
    val validFrom: LocalDate,
    val validUntil: LocalDate? = null,
) {
    fun appliesOn(date: LocalDate): Boolean =
        !date.isBefore(validFrom) && (validUntil == null || !date.isAfter(validUntil))
}

data class Customer(
    val id: String,
    val country: String,
    val vatId: String? = null,
) {
    val isBusiness: Boolean get() = !vatId.isNullOrBlank()
}

data class TaxedLine(
    val description: String,
    val netCents: Long,
    val taxCents: Long,
    val percent: BigDecimal,
    val treatment: TaxTreatment,
)

/** Cents to a two-decimal amount, e.g. 1999 -> 19.99. */
fun Long.centsToDecimal(): BigDecimal = BigDecimal.valueOf(this, 2)

/** Commercial rounding to whole cents (half-up, as the tax office expects). */
fun BigDecimal.roundToCents(): Long = this.setScale(2, RoundingMode.HALF_UP).movePointRight(2).toLong()

private val EU_MEMBERS = setOf(
    "AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU",
    "IE", "IT", "LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK",
)

fun String.isEuCountry(): Boolean = uppercase() in EU_MEMBERS

/**
 * Format checks per country for VAT identification numbers. This is only a
 * syntax check; the VIES lookup happens asynchronously when the customer
 * record is saved.
 */
val vatIdFormat: Map<String, (String) -> Boolean> = mapOf(
    "DE" to { id: String -> Regex("DE\\d{9}").matches(id) },
    "AT" to { id: String -> Regex("ATU\\d{8}").matches(id) },
    "FR" to { id: String -> Regex("FR[0-9A-HJ-NP-Z]{2}\\d{9}").matches(id) },
    "NL" to { id: String -> Regex("NL\\d{9}B\\d{2}").matches(id) },
    "IT" to { id: String -> id.length == 13 && id.startsWith("IT") && id.drop(2).all(Char::isDigit) },
)

fun looksLikeValidVatId(vatId: String): Boolean {
    val normalized = vatId.replace(" ", "").uppercase()
    val check = vatIdFormat[normalized.take(2)] ?: return normalized.length in 8..14
    return check(normalized)
}

/** The rate table. Loaded once; updated by a code change when rates change. */
object TaxTable {
    private val rates: List<TaxRate> = listOf(
        TaxRate("DE", ProductCategory.STANDARD, BigDecimal("19"), LocalDate.of(2021, 1, 1)),
        TaxRate("DE", ProductCategory.FOOD, BigDecimal("7"), LocalDate.of(2021, 1, 1)),
        TaxRate("DE", ProductCategory.BOOKS, BigDecimal("7"), LocalDate.of(2021, 1, 1)),
        TaxRate("DE", ProductCategory.DIGITAL, BigDecimal("19"), LocalDate.of(2021, 1, 1)),
        TaxRate("DE", ProductCategory.MEDICAL, BigDecimal("19"), LocalDate.of(2021, 1, 1)),
        TaxRate("FR", ProductCategory.STANDARD, BigDecimal("20"), LocalDate.of(2014, 1, 1)),
        TaxRate("FR", ProductCategory.BOOKS, BigDecimal("5.5"), LocalDate.of(2014, 1, 1)),
        TaxRate("FR", ProductCategory.DIGITAL, BigDecimal("20"), LocalDate.of(2014, 1, 1)),
        TaxRate("AT", ProductCategory.STANDARD, BigDecimal("20"), LocalDate.of(2016, 1, 1)),
        TaxRate("AT", ProductCategory.DIGITAL, BigDecimal("20"), LocalDate.of(2016, 1, 1)),
        TaxRate("NL", ProductCategory.STANDARD, BigDecimal("21"), LocalDate.of(2019, 1, 1)),
        TaxRate("NL", ProductCategory.DIGITAL, BigDecimal("21"), LocalDate.of(2019, 1, 1)),
    )

    /**
     * Rate for a country/category on a date. Categories without a reduced
     * rate fall back to the country's standard rate.
     */
    fun rateFor(country: String, category: ProductCategory, on: LocalDate): TaxRate {
        val candidates = rates.filter { it.country == country && it.appliesOn(on) }
        return candidates.firstOrNull { it.category == category }
            ?: candidates.firstOrNull { it.category == ProductCategory.STANDARD }
            ?: throw IllegalArgumentException("no VAT rate for $country on $on")
    }

    fun countries(): Set<String> = rates.map { it.country }.toSortedSet()
}

class TaxCalculator private constructor(
    private val sellerCountry: String,
    private val ossRegistered: Boolean,
) {
    companion object {
        /** Below this yearly EU B2C volume, destination rules do not apply. */
        const val OSS_THRESHOLD_CENTS = 10_000_00L

        fun forGermanEntity(ossRegistered: Boolean = true) = TaxCalculator("DE", ossRegistered)

        /** Whether last year's EU B2C sales force destination-country VAT. */
        fun ossRequired(euConsumerSalesCents: Long): Boolean = euConsumerSalesCents > OSS_THRESHOLD_CENTS

        /** Notice printed on invoices when the customer owes the VAT. */
        fun reverseChargeNote(customer: Customer): String =
            "Reverse charge: VAT to be accounted for by the recipient (${customer.vatId})."
    }

    /**
     * Decide which VAT regime applies to a sale. B2B inside the EU with a
     * plausible VAT id is reverse charge; B2C digital goods to another EU
     * country go through OSS once registered; anything outside the EU is an
     * export.
     */
    fun treatmentFor(customer: Customer, category: ProductCategory): TaxTreatment = when {
        !customer.country.isEuCountry() -> TaxTreatment.EXPORT
        customer.country == sellerCountry -> TaxTreatment.DOMESTIC
        customer.isBusiness && looksLikeValidVatId(customer.vatId!!) -> TaxTreatment.REVERSE_CHARGE
        category == ProductCategory.DIGITAL && ossRegistered -> TaxTreatment.OSS
        else -> TaxTreatment.DOMESTIC
    }

    /** Tax one invoice line: net amount in, net + tax + applied rate out. */
    fun taxLine(
        customer: Customer,
        description: String,
        netCents: Long,
        category: ProductCategory,
        supplyDate: LocalDate,
    ): TaxedLine {
        val treatment = treatmentFor(customer, category)
        val percent = when (treatment) {
            TaxTreatment.EXPORT, TaxTreatment.REVERSE_CHARGE -> BigDecimal.ZERO
            TaxTreatment.OSS -> TaxTable.rateFor(customer.country, category, supplyDate).percent
            TaxTreatment.DOMESTIC -> TaxTable.rateFor(sellerCountry, category, supplyDate).percent
        }
        val tax = netCents.centsToDecimal()
            .multiply(percent)
            .divide(BigDecimal(100))
            .roundToCents()
        return TaxedLine(description, netCents, tax, percent, treatment)
    }

    /**
     * The tax summary block at the bottom of an invoice: one row per rate
     * with the net base and the tax, as required on German invoices.
     */
    fun summarize(lines: List<TaxedLine>): List<Triple<BigDecimal, Long, Long>> =
        lines.groupBy { it.percent.stripTrailingZeros() }
            .map { (percent, group) -> Triple(percent, group.sumOf { it.netCents }, group.sumOf { it.taxCents }) }
            .sortedByDescending { it.first }
}
