// Restock planner of the Lyon warehouse's handheld app: which shelves to refill
// before the morning pick wave, and what to order from suppliers.
import 'dart:async';
import 'dart:math' as math;

import 'package:flutter/material.dart';

/// A supplier's answer to an order: how many units and by when.
typedef SupplierQuote = ({int units, DateTime eta});

/// Prices are kept in cents: a float never reaches an invoice.
const int centsPerEuro = 100;

/// How urgently a shelf needs stock.
enum Urgency {
  low('à surveiller'),
  medium('bientôt'),
  high('urgent');

  const Urgency(this.label);

  /// The label shown on the handheld, in French as the floor team reads it.
  final String label;

  bool get needsCall => this == Urgency.high;
}

/// One shelf slot: a SKU, what is on it and what it can hold.
class Shelf {
  Shelf(this.sku, {required this.onHand, required this.capacity, this.unitCents = 0});

  /// A shelf read from the scanner's JSON export.
  factory Shelf.fromJson(Map<String, dynamic> json) {
    return Shelf(
      json['sku'] as String,
      onHand: json['on_hand'] as int? ?? 0,
      capacity: json['capacity'] as int? ?? 1,
      unitCents: json['unit_cents'] as int? ?? 0,
    );
  }

  final String sku;
  final int capacity;
  final int unitCents;
  int onHand;

  /// Share of the shelf still filled, from 0.0 to 1.0.
  double get fillRatio => capacity == 0 ? 0 : onHand / capacity;

  int get missing => math.max(0, capacity - onHand);

  Urgency get urgency {
    if (fillRatio < 0.15) return Urgency.high;
    if (fillRatio < 0.4) return Urgency.medium;
    return Urgency.low;
  }
}

/// Logs planner decisions to the device console (the floor lead reads them at 6 a.m.).
mixin DecisionLog {
  final List<String> _entries = [];

  void note(String message) {
    _entries.add('${DateTime.now().toIso8601String()} $message');
  }

  List<String> get entries => List.unmodifiable(_entries);
}

/// Euro formatting for cent amounts.
extension CentsFormat on int {
  String get euros => '${(this / centsPerEuro).toStringAsFixed(2)} €';
}

/// Plans the refill of every shelf from the reserve, and orders what the reserve lacks.
class RestockPlanner with DecisionLog {
  RestockPlanner(this.shelves, {this.reserve = const {}, this.budgetCents = 500000});

  final List<Shelf> shelves;

  /// Units in the back-room reserve, per SKU.
  final Map<String, int> reserve;

  /// The most the night shift may order without the manager's approval.
  final int budgetCents;

  /// Shelves that need stock, most urgent first.
  List<Shelf> get toRefill {
    final pending = shelves.where((s) => s.missing > 0).toList();
    pending.sort((a, b) => a.fillRatio.compareTo(b.fillRatio));
    return pending;
  }

  int reserveFor(String sku) => reserve[sku] ?? 0;

  /// Builds the night's plan: moves from the reserve first, then supplier orders within
  /// the budget. Returns one line per action, in the order the floor team does them.
  List<String> buildPlan({DateTime? now, bool dryRun = false}) {
    final started = now ?? DateTime.now();
    final lines = <String>[];
    final orders = <String, int>{};
    var spentCents = 0;
    var moved = 0;

    // A supplier delivers in whole cartons: round up to the carton size.
    int cartons(int units, {int perCarton = 12}) {
      final full = (units + perCarton - 1) ~/ perCarton;
      return full * perCarton;
    }

    for (final shelf in toRefill) {
      final fromReserve = math.min(shelf.missing, reserveFor(shelf.sku));
      if (fromReserve > 0) {
        lines.add('MOVE ${shelf.sku}: $fromReserve from reserve');
        moved += fromReserve;
        if (!dryRun) {
          shelf.onHand += fromReserve;
          reserve[shelf.sku] = reserveFor(shelf.sku) - fromReserve;
        }
      }

      final stillMissing = shelf.missing - (dryRun ? fromReserve : 0);
      if (stillMissing <= 0) {
        continue;
      }

      final units = cartons(stillMissing);
      final cost = units * shelf.unitCents;
      if (spentCents + cost > budgetCents) {
        note('skipped ${shelf.sku}: ${cost.euros} over the night budget');
        lines.add('HOLD ${shelf.sku}: needs approval (${cost.euros})');
        continue;
      }

      spentCents += cost;
      orders.update(shelf.sku, (n) => n + units, ifAbsent: () => units);
      switch (shelf.urgency) {
        case Urgency.high:
          lines.add('ORDER ${shelf.sku}: $units units, express — ${shelf.urgency.label}');
        case Urgency.medium:
          lines.add('ORDER ${shelf.sku}: $units units, next delivery');
        case Urgency.low:
          lines.add('ORDER ${shelf.sku}: $units units, with the weekly truck');
      }
    }

    if (orders.isEmpty && moved == 0) {
      lines.add('NOTHING TO DO: every shelf is full');
    } else if (orders.length > 20) {
      // More than one truck: the supplier wants the list split by aisle.
      note('large order: ${orders.length} SKUs, split by aisle before sending');
    }

    final elapsed = DateTime.now().difference(started);
    note('plan: ${lines.length} actions, $moved moved, ${spentCents.euros} ordered '
        'in ${elapsed.inMilliseconds} ms');
    lines.add('TOTAL ${spentCents.euros} of ${budgetCents.euros}');
    return lines;
  }

  /// Sends the plan's orders to the supplier API, one at a time (it rate-limits hard).
  Future<List<SupplierQuote>> sendOrders(Map<String, int> orders) async {
    final quotes = <SupplierQuote>[];
    for (final entry in orders.entries) {
      await Future<void>.delayed(const Duration(milliseconds: 200));
      quotes.add((units: entry.value, eta: DateTime.now().add(const Duration(days: 2))));
    }
    return quotes;
  }
}

/// The handheld's screen listing shelves to refill.
class RestockScreen extends StatefulWidget {
  const RestockScreen({super.key, required this.planner});

  final RestockPlanner planner;

  @override
  State<RestockScreen> createState() => _RestockScreenState();
}

class _RestockScreenState extends State<RestockScreen> {
  List<String> _plan = const [];

  @override
  void initState() {
    super.initState();
    _plan = widget.planner.buildPlan(dryRun: true);
  }

  @override
  Widget build(BuildContext context) {
    return ListView(
      children: [
        for (final line in _plan) ListTile(title: Text(line)),
      ],
    );
  }
}
