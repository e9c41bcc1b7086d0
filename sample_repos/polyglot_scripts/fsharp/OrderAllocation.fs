/// Allocation of the morning's web orders to the Lyon warehouse's bins: which bin each
/// order line is picked from, what is left short, and what the buyers should restock.
/// Amounts are in euro cents.
module Shop.Warehouse.Allocation

open System

/// A stock keeping unit, as printed on the shelf label.
type Sku = string

/// Where a bin stands on the floor; the pickers walk the zones in this order.
type Zone =
    | Ambient
    | Chilled
    | Frozen

/// How urgent a restock is (the value orders the buyers' list).
type Urgency =
    | Now = 0
    | Today = 1
    | ThisWeek = 2

/// One bin of one product.
type Bin =
    { Code: string
      Sku: Sku
      Zone: Zone
      OnHand: int
      ReorderPoint: int
      PackSize: int }

/// Anything with a price in cents.
type IPriced =
    abstract member PriceCents: unit -> int64

/// A line of a web order.
type OrderLine =
    { OrderId: string
      Sku: Sku
      Quantity: int
      UnitCents: int64 }

    interface IPriced with
        member this.PriceCents() = int64 this.Quantity * this.UnitCents

/// What became of one order line.
type Allocation =
    | Picked of bin: string * quantity: int
    | Split of picks: (string * int) list
    | Short of picks: (string * int) list * missing: int

/// Raised when an order names a product the warehouse has never stocked.
exception UnknownSku of Sku

/// Prices and rounding shared by the allocation report and the invoices.
module Pricing =
    /// The VAT rate, in percent.
    [<Literal>]
    let VatPercent = 20L

    /// Cents with VAT, rounded half up.
    let withVat (cents: int64) = cents + (cents * VatPercent + 50L) / 100L

    /// Formats cents the French way: 123456 is "1 234,56 €".
    let format (cents: int64) =
        let rec group (n: int64) =
            if n < 1000L then string n
            else sprintf "%s %03d" (group (n / 1000L)) (n % 1000L)
        let sign = if cents < 0L then "-" else ""
        sprintf "%s%s,%02d €" sign (group (abs cents / 100L)) (abs cents % 100L)

/// A bin at or under its reorder point is low.
let (|Low|Enough|) (bin: Bin) =
    if bin.OnHand <= bin.ReorderPoint then Low else Enough

/// The warehouse's stock, bins by SKU, changed as lines are picked.
type Stock(bins: Bin list) =
    let mutable bySku = bins |> List.groupBy (fun b -> b.Sku) |> Map.ofList

    /// An empty warehouse, for tests.
    new() = Stock([])

    /// The bins of a SKU, the fullest first.
    member this.BinsOf(sku: Sku) =
        match Map.tryFind sku bySku with
        | Some found -> found |> List.sortByDescending (fun b -> b.OnHand)
        | None -> raise (UnknownSku sku)

    /// Units on hand of a SKU, all bins together.
    member this.OnHand(sku: Sku) = this.BinsOf sku |> List.sumBy (fun b -> b.OnHand)

    /// Takes `quantity` units out of bin `code`.
    member this.Take(code: string, quantity: int) =
        let take (b: Bin) = if b.Code = code then { b with OnHand = b.OnHand - quantity } else b
        bySku <- bySku |> Map.map (fun _ found -> List.map take found)

    /// Every bin at or under its reorder point.
    member this.LowBins =
        bySku
        |> Map.toList
        |> List.collect snd
        |> List.filter (function
            | Low -> true
            | Enough -> false)

    /// Reads `code;sku;zone;on_hand;reorder_point;pack` lines, the export's format.
    static member Parse(lines: string seq) =
        let zoneOf =
            function
            | "C" -> Chilled
            | "F" -> Frozen
            | _ -> Ambient
        lines
        |> Seq.map (fun line -> line.Split ';')
        |> Seq.map (fun f ->
            { Code = f.[0]; Sku = f.[1]; Zone = zoneOf f.[2]
              OnHand = int f.[3]; ReorderPoint = int f.[4]; PackSize = int f.[5] })
        |> List.ofSeq
        |> Stock

/// Walks the pick path as a snake: odd aisles up, even aisles down.
let rec walkUp aisle last acc =
    if aisle > last then List.rev acc
    else walkDown (aisle + 1) last (sprintf "A%02d up" aisle :: acc)

/// The other half of the snake.
and walkDown aisle last acc =
    if aisle > last then List.rev acc
    else walkUp (aisle + 1) last (sprintf "A%02d down" aisle :: acc)

/// Allocates the morning's order lines, largest orders first, taking from the fullest bin
/// and splitting a line over several bins when one is not enough. Lines of unknown SKUs
/// are left out and logged.
let allocate (stock: Stock) (lines: OrderLine list) =
    let rec pick remaining (bins: Bin list) picks =
        match bins with
        | _ when remaining = 0 -> List.rev picks, 0
        | [] -> List.rev picks, remaining
        | bin :: rest when bin.OnHand = 0 -> pick remaining rest picks
        | bin :: rest ->
            let taken = min remaining bin.OnHand
            stock.Take(bin.Code, taken)
            pick (remaining - taken) rest ((bin.Code, taken) :: picks)
    let byValue =
        lines
        |> List.sortByDescending (fun line -> (line :> IPriced).PriceCents())
    [ for line in byValue do
        match (try Some(stock.BinsOf line.Sku) with UnknownSku _ -> None) with
        | None -> eprintfn "order %s: unknown SKU %s, skipped" line.OrderId line.Sku
        | Some bins ->
            let picks, missing = pick line.Quantity bins []
            let outcome =
                match picks, missing with
                | [ (code, quantity) ], 0 -> Picked(code, quantity)
                | _, 0 -> Split picks
                | _ -> Short(picks, missing)
            yield line.OrderId, line.Sku, outcome ]

/// The buyers' restock list: each low bin with its urgency and the quantity to order,
/// rounded up to whole packs.
let restockPlan (stock: Stock) =
    let roundUpToPack pack quantity = (quantity + pack - 1) / pack * pack
    stock.LowBins
    |> List.map (fun bin ->
        let urgency =
            if bin.OnHand = 0 then Urgency.Now
            elif bin.OnHand * 2 <= bin.ReorderPoint then Urgency.Today
            else Urgency.ThisWeek
        let target = bin.ReorderPoint * 3
        urgency, bin.Code, roundUpToPack bin.PackSize (target - bin.OnHand))
    |> List.sortBy (fun (urgency, code, _) -> int urgency, code)

[<EntryPoint>]
let main argv =
    let stock = Stock.Parse(IO.File.ReadLines argv.[0])
    let lines = [ { OrderId = "W-1042"; Sku = "OLIVE-500"; Quantity = 12; UnitCents = 899L } ]
    for orderId, sku, outcome in allocate stock lines do
        printfn "%s %s %A" orderId sku outcome
    for urgency, code, quantity in restockPlan stock do
        printfn "%A %s %d" urgency code quantity
    printfn "route: %s" (String.Join(" > ", walkUp 1 6 []))
    0
