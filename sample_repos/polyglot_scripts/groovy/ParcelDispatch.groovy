package shop.warehouse.dispatch

import groovy.transform.CompileStatic
import groovy.transform.ToString
import java.time.LocalDate
import java.time.LocalTime

/**
 * The carriers that collect parcels at the Lyon warehouse's loading dock, with the hour
 * their truck leaves. A parcel packed after the cut-off waits for the next day's truck.
 */
enum Carrier {
    COLISSIMO('COL', LocalTime.of(16, 30)),
    DPD('DPD', LocalTime.of(17, 15)),
    PALLET_EXPRESS('PLX', LocalTime.of(14, 0))

    final String code
    final LocalTime cutOff

    Carrier(String code, LocalTime cutOff) {
        this.code = code
        this.cutOff = cutOff
    }

    /** Whether a parcel packed at {@code packedAt} still leaves today. */
    boolean leavesToday(LocalTime packedAt) {
        packedAt.isBefore(cutOff)
    }
}

/** Who touched a parcel last: every dispatch step signs the parcel's history. */
trait Audited {
    List<String> history = []

    void sign(String station, String what) {
        history.add("${LocalTime.now()} ${station}: ${what}".toString())
    }
}

/**
 * One parcel on its way out: the order it ships, the bins it was picked from, its weight
 * once the packing station's scale has read it.
 */
@ToString(includeNames = true)
class Parcel implements Audited {
    String orderId
    String aisle
    List<String> skus = []
    BigDecimal weightKg
    Carrier carrier
    String labelZpl
}

/**
 * Dispatch of the packed parcels: which carrier takes each one, its label, and the
 * evening wave that loads the trucks at the dock doors.
 */
@CompileStatic
class DispatchService {
    // Parcels the packing stations have closed and not yet loaded, by order id.
    private final Map<String, Parcel> waiting = [:]
    private final LabelPrinter printer
    private final StockClient stock
    static final BigDecimal PALLET_KG = 30.0

    DispatchService(LabelPrinter printer, StockClient stock) {
        this.printer = printer
        this.stock = stock
    }

    // Called by the packing station when its scale has weighed a parcel.
    def onWeighed = { String orderId, BigDecimal kg ->
        Parcel parcel = waiting.get(orderId)
        parcel.weightKg = kg
        parcel.sign('scale', "weighed ${kg} kg")
    }

    // Rules the supervisor may switch off from the dashboard.
    boolean heavyGoesByPallet = true
    boolean frozenAisleFirst = true

    // Whether a parcel is too heavy for a van: it goes on a pallet.
    def isPallet = { Parcel p ->
        heavyGoesByPallet && p.weightKg.compareTo(PALLET_KG) != -1
    }

    /** Takes a parcel the packing station has closed; it waits for the evening wave. */
    void accept(Parcel parcel) {
        waiting.put(parcel.orderId, parcel)
        parcel.sign('packing', 'closed')
        stock.release(parcel.skus)
    }

    /** The carrier for one parcel: pallets for the heavy ones, else the cheapest that still leaves today. */
    Carrier chooseCarrier(Parcel parcel, LocalTime now) {
        if (isPallet(parcel)) {
            return Carrier.PALLET_EXPRESS
        }
        List<Carrier> open = Carrier.values().findAll { Carrier c -> c.leavesToday(now) }
        return open ? open.first() : Carrier.COLISSIMO
    }

    /**
     * Plans the evening wave: assigns a carrier and a dock door to every waiting parcel,
     * prints the labels, and returns the loading list per door, frozen aisles first. Parcels
     * that missed every truck stay waiting for tomorrow's first wave.
     */
    Map<String, List<Parcel>> planWave(LocalTime now, List<String> doors) {
        Map<String, List<Parcel>> byDoor = doors.collectEntries { String door -> [(door): []] }
        List<Parcel> late = []
        List<Parcel> queue = new ArrayList<>(waiting.values())

        // Frozen goods leave first: their boxes only keep cold for a few hours.
        if (frozenAisleFirst) {
            queue.sort { Parcel p -> p.aisle.startsWith('F') ? 0 : 1 }
        }

        int doorIndex = 0
        for (Parcel parcel : queue) {
            if (parcel.weightKg == null) {
                parcel.sign('dispatch', 'not weighed: back to the packing station')
                late.add(parcel)
                continue
            }

            Carrier carrier = chooseCarrier(parcel, now)
            if (!carrier.leavesToday(now)) {
                parcel.sign('dispatch', "missed the ${carrier.code} truck")
                late.add(parcel)
                continue
            }
            parcel.carrier = carrier

            // Pallets go to the last door, where the forklift loads.
            String door
            if (carrier == Carrier.PALLET_EXPRESS) {
                door = doors.last()
            } else {
                door = doors[doorIndex % (doors.size() - 1)]
                doorIndex++
            }

            parcel.labelZpl = printer.render(
                orderId: parcel.orderId,
                carrier: carrier.code,
                door: door,
                weight: parcel.weightKg,
            )
            printer.print(parcel.labelZpl)
            parcel.sign('dispatch', "label printed for door ${door}")

            byDoor[door].add(parcel)
            waiting.remove(parcel.orderId)
        }

        // The supervisor's summary on the dock screen.
        byDoor.each { String door, List<Parcel> parcels ->
            def kg = parcels.sum(0.0) { Parcel p -> p.weightKg }
            println "door ${door}: ${parcels.size()} parcels, ${kg} kg"
        }
        if (late) {
            println "${late.size()} parcels wait for tomorrow's first wave"
            late.each { Parcel p -> p.sign('dispatch', "kept for ${LocalDate.now().plusDays(1)}") }
        }

        stock.reportShipped(byDoor.values().flatten().collect { Parcel p -> p.orderId })
        return byDoor
    }

    /** Parcels still waiting, oldest order first, for the dashboard. */
    List<Parcel> backlog() {
        waiting.values().sort { Parcel p -> p.orderId }
    }
}

interface LabelPrinter {
    String render(Map fields)
    void print(String zpl)
}

interface StockClient {
    void release(List<String> skus)
    void reportShipped(List<String> orderIds)
}

// Run by hand on the dock PC when the wave must be replanned.
def replan(DispatchService service) {
    service.planWave(LocalTime.now(), ['D1', 'D2', 'D3', 'D4'])
}

def printBacklog = { DispatchService service ->
    service.backlog().each { println it }
}
