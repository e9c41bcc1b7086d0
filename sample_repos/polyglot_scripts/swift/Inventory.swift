import Foundation

/// Stock levels as the handheld scanner app in the Lyon warehouse sees them.
///
/// Counts come from the picking robots' feed; a scan only ever adjusts them locally until the
/// next sync, so the app can keep working on the warehouse floor without a connection.
@MainActor
final class Inventory: ObservableObject {
    /// One storage bin: an aisle, a shelf and the SKUs on it.
    struct Bin: Hashable {
        let aisle: Int
        let shelf: String

        var label: String { "A\(aisle)-\(shelf)" }
    }

    /// Why a count changed, shown in the scan history.
    enum Adjustment: String, CaseIterable {
        case picked, restocked, damaged, recounted

        var sign: Int {
            switch self {
            case .picked, .damaged: return -1
            case .restocked, .recounted: return 1
            }
        }
    }

    @Published private(set) var counts: [String: Int] = [:]
    private var bins: [String: Bin] = [:]
    private var history: [(sku: String, change: Int, reason: Adjustment)] = []

    /// SKUs at or under this count are flagged for restocking.
    let lowStockThreshold: Int

    init(threshold: Int = 5) {
        self.lowStockThreshold = threshold
    }

    deinit {
        print("inventory released with \(history.count) unsynced adjustments")
    }

    var totalUnits: Int {
        counts.values.reduce(0, +)
    }

    var lowStock: [String] {
        get {
            counts.filter { $0.value <= lowStockThreshold }.map(\.key).sorted()
        }
    }

    subscript(sku: String) -> Int {
        counts[sku, default: 0]
    }

    /// Records a scan; a pick never takes a count below zero.
    @discardableResult
    func apply(_ reason: Adjustment, sku: String, quantity: Int) -> Int {
        let change = reason.sign * quantity
        let updated = max(0, self[sku] + change)
        counts[sku] = updated
        history.append((sku: sku, change: change, reason: reason))
        return updated
    }

    func place(sku: String, in bin: Bin) {
        bins[sku] = bin
    }

    /// The bins to visit for a pick list, in walking order: by aisle, then shelf.
    func route(for skus: [String]) -> [Bin] {
        let wanted = Set(skus.compactMap { bins[$0] })
        return wanted.sorted { lhs, rhs in
            if lhs.aisle != rhs.aisle {
                return lhs.aisle < rhs.aisle
            }
            return lhs.shelf < rhs.shelf
        }
    }
}

/// Where adjustments go when the scanner gets a connection back.
protocol StockSync {
    var endpoint: URL { get }
    func push(_ changes: [String: Int]) async throws
}

extension Inventory {
    /// Net change per SKU since the last sync, the payload of `StockSync.push`.
    func pendingChanges() -> [String: Int] {
        var net: [String: Int] = [:]
        for entry in history {
            net[entry.sku, default: 0] += entry.change
        }
        return net.filter { $0.value != 0 }
    }

    func clearHistory() {
        history.removeAll()
    }
}

/// Serialises pushes so two syncs never send the same adjustments twice.
actor SyncQueue {
    private var running = false
    private let sync: StockSync

    init(sync: StockSync) {
        self.sync = sync
    }

    func flush(_ inventory: Inventory) async {
        guard !running else { return }
        running = true
        defer { running = false }
        let changes = await inventory.pendingChanges()
        do {
            try await sync.push(changes)
            await inventory.clearHistory()
        } catch {
            print("sync failed, keeping \(changes.count) changes: \(error)")
        }
    }
}

/// Normalises what the barcode reader sends: trims it, upper-cases it, drops a check digit.
let normalizeSKU = { (raw: String) -> String in
    let trimmed = raw.trimmingCharacters(in: .whitespacesAndNewlines).uppercased()
    return trimmed.count == 13 ? String(trimmed.dropLast()) : trimmed
}
