//! Restock planner for the Lyon warehouse's label printer box.
//!
//! The box has 64 MiB of memory and no operating system worth the name, so the planner is a
//! small freestanding Zig program: it reads the nightly stock snapshot (one `sku;on_hand;
//! reorder_point;pack_size` line per bin) and prints the pick list for the morning shift.

const std = @import("std");
const mem = std.mem;

/// Why a line of the snapshot was skipped.
pub const ParseError = error{ MissingField, BadNumber, EmptySku };

/// How urgently a SKU needs restocking, from the shift lead's colour codes.
pub const Urgency = enum(u8) {
    none,
    soon,
    today,
    /// Out of stock: the SKU cannot be picked at all.
    empty,

    /// The label printed next to the line ("à commander" is the French shift's word for it).
    pub fn label(self: Urgency) []const u8 {
        return switch (self) {
            .none => "ok",
            .soon => "bientôt",
            .today => "à commander",
            .empty => "RUPTURE",
        };
    }
};

/// One bin of the snapshot, and what it takes to bring it back above its reorder point.
pub const Bin = struct {
    sku: []const u8,
    on_hand: u32,
    reorder_point: u32,
    pack_size: u32,

    /// A bin's place on the pick list, kept beside it while the list is sorted.
    pub const Rank = struct {
        urgency: Urgency,
        shortfall: u32,

        /// Most urgent first; among equals, the larger shortfall first.
        pub fn before(_: void, a: Rank, b: Rank) bool {
            if (a.urgency != b.urgency) return @intFromEnum(a.urgency) > @intFromEnum(b.urgency);
            return a.shortfall > b.shortfall;
        }
    };

    /// Reads one `sku;on_hand;reorder_point;pack_size` line.
    pub fn parse(line: []const u8) ParseError!Bin {
        var fields = mem.splitScalar(u8, line, ';');
        const sku = mem.trim(u8, fields.next() orelse return error.MissingField, " ");
        if (sku.len == 0) return error.EmptySku;
        return .{
            .sku = sku,
            .on_hand = try number(fields.next()),
            .reorder_point = try number(fields.next()),
            .pack_size = @max(1, try number(fields.next())),
        };
    }

    /// How urgent the bin is: empty, below half its reorder point, below it, or fine.
    pub fn urgency(self: Bin) Urgency {
        if (self.on_hand == 0) return .empty;
        if (self.on_hand * 2 < self.reorder_point) return .today;
        if (self.on_hand < self.reorder_point) return .soon;
        return .none;
    }

    /// Whole packs to order so that the bin is back at its reorder point.
    pub fn packsToOrder(self: Bin) u32 {
        if (self.on_hand >= self.reorder_point) return 0;
        const missing = self.reorder_point - self.on_hand;
        return (missing + self.pack_size - 1) / self.pack_size;
    }

    fn number(field: ?[]const u8) ParseError!u32 {
        const text = mem.trim(u8, field orelse return error.MissingField, " ");
        return std.fmt.parseInt(u32, text, 10) catch error.BadNumber;
    }
};

/// Totals printed under the pick list.
pub const Summary = struct {
    lines: usize = 0,
    skipped: usize = 0,
    packs: u64 = 0,
    empty_bins: usize = 0,
};

/// Reads a whole snapshot and writes the pick list, most urgent bins first.
///
/// Lines that do not parse are counted and reported on the last line, never fatal: a
/// half-written snapshot still gives the morning shift something to work from. Bins that need
/// nothing are left out unless `verbose` is set.
pub fn planRestock(
    allocator: mem.Allocator,
    snapshot: []const u8,
    writer: anytype,
    verbose: bool,
) !Summary {
    var summary = Summary{};
    var bins = std.ArrayList(Bin).init(allocator);
    defer bins.deinit();
    var ranks = std.ArrayList(Bin.Rank).init(allocator);
    defer ranks.deinit();

    var lines = mem.splitScalar(u8, snapshot, '\n');
    while (lines.next()) |raw| {
        const line = mem.trimRight(u8, raw, "\r");
        if (line.len == 0 or line[0] == '#') continue;
        summary.lines += 1;
        const bin = Bin.parse(line) catch |err| {
            summary.skipped += 1;
            std.log.warn("line {d} skipped: {s}", .{ summary.lines, @errorName(err) });
            continue;
        };
        try bins.append(bin);
        try ranks.append(.{
            .urgency = bin.urgency(),
            .shortfall = bin.reorder_point -| bin.on_hand,
        });
    }

    // Sort an index rather than the bins: the ranks and the bins stay side by side.
    const order = try allocator.alloc(usize, bins.items.len);
    defer allocator.free(order);
    for (order, 0..) |*slot, i| slot.* = i;
    const Context = struct {
        ranks: []const Bin.Rank,
        fn lessThan(ctx: @This(), a: usize, b: usize) bool {
            return Bin.Rank.before({}, ctx.ranks[a], ctx.ranks[b]);
        }
    };
    mem.sort(usize, order, Context{ .ranks = ranks.items }, Context.lessThan);

    try writer.print("{s:<16} {s:>8} {s:>8} {s:>6}  {s}\n", .{ "SKU", "on hand", "reorder", "packs", "état" });
    for (order) |index| {
        const bin = bins.items[index];
        const rank = ranks.items[index];
        const packs = bin.packsToOrder();
        if (rank.urgency == .empty) summary.empty_bins += 1;
        summary.packs += packs;
        if (rank.urgency == .none and !verbose) continue;
        try writer.print("{s:<16} {d:>8} {d:>8} {d:>6}  {s}\n", .{
            bin.sku,
            bin.on_hand,
            bin.reorder_point,
            packs,
            rank.urgency.label(),
        });
    }

    try writer.print("{d} bins, {d} packs to order, {d} empty", .{
        summary.lines - summary.skipped,
        summary.packs,
        summary.empty_bins,
    });
    if (summary.skipped > 0) {
        try writer.print(", {d} lines skipped (see the log)", .{summary.skipped});
    }
    try writer.writeAll("\n");
    return summary;
}

test "a bin below half its reorder point is due today" {
    const bin = try Bin.parse("MUG-0042; 3; 10; 6");
    try std.testing.expectEqual(Urgency.today, bin.urgency());
    try std.testing.expectEqual(@as(u32, 2), bin.packsToOrder());
}

test "a bad line is skipped, not fatal" {
    var out = std.ArrayList(u8).init(std.testing.allocator);
    defer out.deinit();
    const summary = try planRestock(std.testing.allocator, "MUG-1;0;4;2\nbroken\n", out.writer(), false);
    try std.testing.expectEqual(@as(usize, 1), summary.skipped);
    try std.testing.expectEqual(@as(usize, 1), summary.empty_bins);
}
