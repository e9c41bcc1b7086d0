package billing;

import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Issues invoices, records payments and produces customer statements.
 *
 * <p>All money is held as {@code long} cents in the invoice currency. Tax is
 * computed per line by the caller (see {@code TaxRules.kt}) and stored on
 * the line so that historic invoices never change when rates do.
 */
public class InvoiceService {

    /** Lifecycle of an invoice. Only DRAFT invoices may be edited. */
    public enum InvoiceStatus {
        DRAFT, ISSUED, PARTIALLY_PAID, PAID, OVERDUE, CANCELLED;

        /** Whether the customer still owes money on an invoice in this state. */
        public boolean isOpen() {
            return this == ISSUED || this == PARTIALLY_PAID || this == OVERDUE;
        }
    }

    /** Abstraction over the card/SEPA provider so tests can fake it. */
    public interface PaymentGateway {
        ChargeResult charge(String customerId, long amountCents, String currency, String reference);
    }

    /** Storage for invoices; the production implementation is JDBC-based. */
    public interface InvoiceRepository {
        void save(Invoice invoice);

        Optional<Invoice> find(String id);

        List<Invoice> findByCustomer(String customerId);
    }

    /** Result of a charge attempt at the gateway. */
    public static final class ChargeResult {
        final boolean success;
        final String transactionId;
        final String declineReason;

        public ChargeResult(boolean success, String transactionId, String declineReason) {
            this.success = success;
            this.transactionId = transactionId;
            this.declineReason = declineReason;
        }
    }

    /** One billed position. Amounts are per unit, net, in cents. */
    public static final class LineItem {
        final String description;
        final int quantity;
        final long unitPriceCents;
        final long taxCents;
        final int discountPercent;

        public LineItem(String description, int quantity, long unitPriceCents, long taxCents, int discountPercent) {
            if (quantity <= 0) {
                throw new IllegalArgumentException("quantity must be positive");
            }
            if (discountPercent < 0 || discountPercent > 100) {
                throw new IllegalArgumentException("discount must be 0..100");
            }
            this.description = Objects.requireNonNull(description);
            this.quantity = quantity;
            this.unitPriceCents = unitPriceCents;
            this.taxCents = taxCents;
            this.discountPercent = discountPercent;
        }

        /** Net amount after the line discount, rounded half-up to the cent. */
        public long net() {
            long gross = unitPriceCents * quantity;
            return gross - Math.round(gross * discountPercent / 100.0);
        }

        /** Net plus tax: what the customer pays for this line. */
        public long total() {
            return net() + taxCents;
        }
    }

    /** Mutable invoice aggregate. Kept package-private on purpose. */
    public static final class Invoice {
        final String id;
        final String customerId;
        final String currency;
        final List<LineItem> lines = new ArrayList<>();
        final List<long[]> payments = new ArrayList<>(); // {epochDay, cents}
        String number;
        LocalDate issuedOn;
        LocalDate dueOn;
        InvoiceStatus status = InvoiceStatus.DRAFT;

        Invoice(String id, String customerId, String currency) {
            this.id = id;
            this.customerId = customerId;
            this.currency = currency;
        }

        long totalCents() {
            return lines.stream().mapToLong(LineItem::total).sum();
        }

        long paidCents() {
            return payments.stream().mapToLong(p -> p[1]).sum();
        }

        long balanceCents() {
            return totalCents() - paidCents();
        }
    }

    /** Simple map-backed repository used in tests and the local dev profile. */
    public static final class InMemoryRepository implements InvoiceRepository {
        private final Map<String, Invoice> byId = new HashMap<>();

        @Override
        public void save(Invoice invoice) {
            byId.put(invoice.id, invoice);
        }

        @Override
        public Optional<Invoice> find(String id) {
            return Optional.ofNullable(byId.get(id));
        }

        @Override
        public List<Invoice> findByCustomer(String customerId) {
            return byId.values().stream()
                    .filter(inv -> inv.customerId.equals(customerId))
                    .collect(Collectors.toList());
        }
    }

    static final int PAYMENT_TERM_DAYS = 14;
    static final long LATE_FEE_FLAT_CENTS = 500;
    static final double LATE_INTEREST_PER_YEAR = 0.09;

    private final InvoiceRepository repository;
    private final PaymentGateway gateway;
    private final Map<Integer, AtomicInteger> sequenceByYear = new HashMap<>();
    private final AtomicInteger idCounter = new AtomicInteger();

    public InvoiceService(InvoiceRepository repository, PaymentGateway gateway) {
        this.repository = repository;
        this.gateway = gateway;
    }

    public Invoice createDraft(String customerId, String currency) {
        Invoice invoice = new Invoice("inv-" + idCounter.incrementAndGet(), customerId, currency);
        repository.save(invoice);
        return invoice;
    }

    public void addLine(String invoiceId, LineItem line) {
        Invoice invoice = load(invoiceId);
        if (invoice.status != InvoiceStatus.DRAFT) {
            throw new IllegalStateException("invoice " + invoiceId + " is " + invoice.status + ", not editable");
        }
        invoice.lines.add(line);
        repository.save(invoice);
    }

    /**
     * Finalise a draft: assign a gapless number for the issue year and set
     * the due date. Empty invoices are refused.
     */
    public String issue(String invoiceId, LocalDate issueDate) {
        Invoice invoice = load(invoiceId);
        if (invoice.status != InvoiceStatus.DRAFT) {
            throw new IllegalStateException("already issued: " + invoice.number);
        }
        if (invoice.lines.isEmpty()) {
            throw new IllegalStateException("cannot issue an empty invoice");
        }
        invoice.number = nextInvoiceNumber(issueDate.getYear());
        invoice.issuedOn = issueDate;
        invoice.dueOn = issueDate.plusDays(PAYMENT_TERM_DAYS);
        invoice.status = InvoiceStatus.ISSUED;
        repository.save(invoice);
        return invoice.number;
    }

    /** Invoice numbers must be gapless per calendar year (tax law). */
    synchronized String nextInvoiceNumber(int year) {
        int seq = sequenceByYear.computeIfAbsent(year, y -> new AtomicInteger()).incrementAndGet();
        return String.format("RE-%d-%06d", year, seq);
    }

    /** Book an incoming payment and move the invoice to PAID / PARTIALLY_PAID. */
    public void recordPayment(String invoiceId, long amountCents, LocalDate receivedOn) {
        if (amountCents <= 0) {
            throw new IllegalArgumentException("payment must be positive");
        }
        Invoice invoice = load(invoiceId);
        if (!invoice.status.isOpen()) {
            throw new IllegalStateException("invoice " + invoice.number + " is not open");
        }
        invoice.payments.add(new long[] {receivedOn.toEpochDay(), amountCents});
        invoice.status = invoice.balanceCents() <= 0 ? InvoiceStatus.PAID : InvoiceStatus.PARTIALLY_PAID;
        repository.save(invoice);
    }

    /** Flag every open invoice of a customer that is past its due date. */
    public int markOverdue(String customerId, LocalDate today) {
        int flagged = 0;
        for (Invoice invoice : repository.findByCustomer(customerId)) {
            if (invoice.status.isOpen() && invoice.status != InvoiceStatus.OVERDUE && today.isAfter(invoice.dueOn)) {
                invoice.status = InvoiceStatus.OVERDUE;
                repository.save(invoice);
                flagged++;
            }
        }
        return flagged;
    }

    /** Cancel an issued invoice that has not received any payment yet. */
    public void cancel(String invoiceId) {
        Invoice invoice = load(invoiceId);
        if (!invoice.payments.isEmpty()) {
            throw new IllegalStateException("issue a credit note instead: payments exist");
        }
        invoice.status = InvoiceStatus.CANCELLED;
        repository.save(invoice);
    }

    /**
     * Try to collect every open invoice of a customer via the stored payment
     * method, oldest due date first. Stops at the first decline so we do not
     * hit the card several times in a row.
     */
    public List<String> collectOpenInvoices(String customerId, LocalDate today) {
        List<String> collected = new ArrayList<>();
        List<Invoice> open = repository.findByCustomer(customerId).stream()
                .filter(inv -> inv.status.isOpen())
                .sorted(Comparator.comparing(inv -> inv.dueOn))
                .collect(Collectors.toList());
        for (Invoice invoice : open) {
            long amount = invoice.balanceCents() + lateFeeFor(invoice, today);
            ChargeResult result = gateway.charge(customerId, amount, invoice.currency, invoice.number);
            if (!result.success) {
                break;
            }
            // Only the invoice balance is booked here; the fee part of the charge
            // is posted as its own ledger entry by the dunning job.
            recordPayment(invoice.id, invoice.balanceCents(), today);
            collected.add(invoice.number + ":" + result.transactionId);
        }
        return collected;
    }

    /**
     * Late fee: a flat reminder fee plus simple daily interest on the open
     * balance for every day past the due date. Nothing before the due date.
     */
    long lateFeeFor(Invoice invoice, LocalDate today) {
        if (invoice.dueOn == null || !today.isAfter(invoice.dueOn)) {
            return 0;
        }
        long daysLate = ChronoUnit.DAYS.between(invoice.dueOn, today);
        double interest = invoice.balanceCents() * LATE_INTEREST_PER_YEAR * daysLate / 365.0;
        return LATE_FEE_FLAT_CENTS + Math.round(interest);
    }

    /**
     * Build the monthly account statement for a customer.
     *
     * <p>The statement lists every invoice issued in {@code [from, to]},
     * payments received in the same window, the balance carried over from
     * before {@code from}, and an aging breakdown of what is still open on
     * {@code to}. Cancelled invoices are listed but not counted. The output
     * is plain text because it is embedded in the e-mail body as-is.
     */
    public String buildStatement(String customerId, LocalDate from, LocalDate to) {
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("statement period ends before it starts");
        }
        List<Invoice> invoices = new ArrayList<>(repository.findByCustomer(customerId));
        invoices.removeIf(inv -> inv.issuedOn == null);
        invoices.sort(Comparator.comparing((Invoice inv) -> inv.issuedOn).thenComparing(inv -> inv.number));
        if (invoices.isEmpty()) {
            return "No invoices for customer " + customerId + ".\n";
        }

        String currency = invoices.get(0).currency;
        long openingBalance = 0;
        long invoicedInPeriod = 0;
        long paidInPeriod = 0;
        long feesAccrued = 0;
        List<String> invoiceRows = new ArrayList<>();
        List<String> paymentRows = new ArrayList<>();
        Map<String, Long> aging = new AgingBuckets().buckets;
        Map<InvoiceStatus, Integer> statusCounts = new EnumMap<>(InvoiceStatus.class);

        long fromDay = from.toEpochDay();
        long toDay = to.toEpochDay();

        for (Invoice inv : invoices) {
            statusCounts.merge(inv.status, 1, Integer::sum);
            if (!inv.currency.equals(currency)) {
                // Mixed currencies are rare (account moved region); report separately.
                invoiceRows.add(String.format("  %-16s %s  (in %s, see separate statement)",
                        inv.number, inv.issuedOn, inv.currency));
                continue;
            }
            boolean cancelled = inv.status == InvoiceStatus.CANCELLED;

            long paidBefore = 0;
            for (long[] payment : inv.payments) {
                if (payment[0] < fromDay) {
                    paidBefore += payment[1];
                } else if (payment[0] <= toDay) {
                    paidInPeriod += payment[1];
                    paymentRows.add(String.format("  %s  %-16s %12s",
                            LocalDate.ofEpochDay(payment[0]), inv.number, formatCents(payment[1], currency)));
                }
            }

            if (inv.issuedOn.isBefore(from)) {
                if (!cancelled) {
                    openingBalance += inv.totalCents() - paidBefore;
                }
            } else if (!inv.issuedOn.isAfter(to)) {
                if (!cancelled) {
                    invoicedInPeriod += inv.totalCents();
                }
                invoiceRows.add(String.format("  %-16s %s  due %s  %12s%s",
                        inv.number, inv.issuedOn, inv.dueOn, formatCents(inv.totalCents(), currency),
                        cancelled ? "  CANCELLED" : ""));
            } else {
                continue; // issued after the statement period
            }

            if (cancelled || !inv.status.isOpen()) {
                continue;
            }
            long open = inv.balanceCents();
            if (open <= 0) {
                continue;
            }
            long daysPastDue = ChronoUnit.DAYS.between(inv.dueOn, to);
            String bucket;
            if (daysPastDue <= 0) {
                bucket = "not yet due";
            } else if (daysPastDue <= 30) {
                bucket = "1-30 days";
            } else if (daysPastDue <= 60) {
                bucket = "31-60 days";
            } else if (daysPastDue <= 90) {
                bucket = "61-90 days";
            } else {
                bucket = "over 90 days";
            }
            aging.merge(bucket, open, Long::sum);
            feesAccrued += lateFeeFor(inv, to);
        }

        long closingBalance = openingBalance + invoicedInPeriod - paidInPeriod;

        StringBuilder out = new StringBuilder();
        out.append("Account statement for customer ").append(customerId).append('\n');
        out.append("Period ").append(from).append(" to ").append(to).append("\n\n");
        out.append(String.format("Opening balance   %14s%n", formatCents(openingBalance, currency)));
        out.append(String.format("Invoiced          %14s%n", formatCents(invoicedInPeriod, currency)));
        out.append(String.format("Payments received %14s%n", formatCents(-paidInPeriod, currency)));
        out.append(String.format("Closing balance   %14s%n%n", formatCents(closingBalance, currency)));

        out.append("Invoices\n");
        if (invoiceRows.isEmpty()) {
            out.append("  (none in this period)\n");
        }
        invoiceRows.forEach(row -> out.append(row).append('\n'));

        out.append("\nPayments\n");
        if (paymentRows.isEmpty()) {
            out.append("  (none in this period)\n");
        }
        Collections.sort(paymentRows);
        paymentRows.forEach(row -> out.append(row).append('\n'));

        out.append("\nOpen items by age\n");
        for (Map.Entry<String, Long> entry : aging.entrySet()) {
            if (entry.getValue() > 0) {
                out.append(String.format("  %-14s %14s%n", entry.getKey(), formatCents(entry.getValue(), currency)));
            }
        }
        if (feesAccrued > 0) {
            out.append(String.format("%nLate fees and interest accrued: %s%n", formatCents(feesAccrued, currency)));
            out.append("These will be added to your next invoice unless paid within 7 days.\n");
        }
        int overdue = statusCounts.getOrDefault(InvoiceStatus.OVERDUE, 0);
        if (overdue > 0) {
            out.append(String.format("%n%d invoice(s) are overdue. Please contact billing@example.com.%n", overdue));
        }
        return out.toString();
    }

    /** Keeps aging buckets in display order. */
    private static final class AgingBuckets {
        final Map<String, Long> buckets = new java.util.LinkedHashMap<>();

        AgingBuckets() {
            for (String name : new String[] {"not yet due", "1-30 days", "31-60 days", "61-90 days", "over 90 days"}) {
                buckets.put(name, 0L);
            }
        }
    }

    /** Format cents as "1.234,56 EUR"-style text with a sign for negatives. */
    static String formatCents(long cents, String currency) {
        String sign = cents < 0 ? "-" : "";
        long abs = Math.abs(cents);
        String units = String.format("%,d", abs / 100).replace(',', '.');
        return String.format("%s%s,%02d %s", sign, units, abs % 100, currency);
    }

    private Invoice load(String invoiceId) {
        return repository.find(invoiceId)
                .orElseThrow(() -> new IllegalArgumentException("unknown invoice " + invoiceId));
    }
}
