(* Stock ledger of the Lyon warehouse: receipts, picks and the nightly
   valuation sent to accounting. Amounts are in euro cents. *)

(** A stock keeping unit, as printed on the shelf label. *)
type sku = string

(** Why a quantity moved. *)
type movement =
  | Receipt of { supplier : string; unit_cost : int }
  | Pick of { order_id : string }
  | Adjustment of string  (** free text from the stock count, e.g. "casse" *)
  | Return_to_supplier

(** One line of the ledger. *)
type entry = {
  sku : sku;
  quantity : int;
  movement : movement;
  at : float;  (** seconds since the epoch *)
}

exception Unknown_sku of sku

(** Prices and rounding rules shared by the valuation and the exports. *)
module Money = struct
  (** [cents_of_euros 12.5] is [1250]; halves round away from zero. *)
  let cents_of_euros euros = int_of_float (Float.round (euros *. 100.))

  (** Formats cents the French way: [format 123456] is ["1 234,56 €"]. *)
  let format cents =
    let euros = abs cents / 100 and rest = abs cents mod 100 in
    let rec group n =
      if n < 1000 then string_of_int n
      else group (n / 1000) ^ " " ^ Printf.sprintf "%03d" (n mod 1000)
    in
    let sign = if cents < 0 then "-" else "" in
    Printf.sprintf "%s%s,%02d €" sign (group euros) rest

  (** Value-added tax at [rate] percent, rounded to the cent. *)
  let with_vat ~rate cents = cents + (cents * rate + 50) / 100
end

(** What a ledger needs from a store of entries. *)
module type STORE = sig
  type t

  val append : t -> entry -> unit
  val entries : t -> entry list
end

(** The ledger over any store: balances, costs and the nightly report. *)
module Make (S : STORE) = struct
  (** Quantity on hand of [sku]: receipts and returns in, picks out. *)
  let on_hand store sku =
    List.fold_left
      (fun acc e -> if e.sku = sku then acc + e.quantity else acc)
      0 (S.entries store)

  (** Records a receipt from a supplier. *)
  let receive store ~supplier ~unit_cost sku quantity =
    S.append store { sku; quantity; movement = Receipt { supplier; unit_cost }; at = Unix.time () }

  (** Records a pick; fails when the shelf would go below zero. *)
  let pick store ~order_id sku quantity =
    let available = on_hand store sku in
    if available < quantity then Error (Printf.sprintf "%s: %d on hand, %d asked" sku available quantity)
    else begin
      S.append store { sku; quantity = -quantity; movement = Pick { order_id }; at = Unix.time () };
      Ok (available - quantity)
    end

  (** Weighted average unit cost of [sku] over its receipts. *)
  let average_cost store sku =
    let received, spent =
      List.fold_left
        (fun (q, c) e ->
          match e.movement with
          | Receipt { unit_cost; _ } when e.sku = sku -> (q + e.quantity, c + (e.quantity * unit_cost))
          | _ -> (q, c))
        (0, 0) (S.entries store)
    in
    if received = 0 then raise (Unknown_sku sku) else c_div spent received

  and c_div a b = (a + (b / 2)) / b

  (** The nightly valuation for accounting: one line per sku, the
      shrinkage (adjustments) apart, and the totals with and without VAT. *)
  let nightly_report store ~vat_rate =
    let entries = S.entries store in
    let skus = List.sort_uniq compare (List.map (fun e -> e.sku) entries) in
    let buffer = Buffer.create 1024 in
    let line fmt = Printf.bprintf buffer (fmt ^^ "\n") in
    line "Valorisation du stock — entrepôt de Lyon";
    line "%-12s %8s %14s %14s" "sku" "qty" "unit cost" "value";
    let total = ref 0 and shrinkage = ref 0 and missing = ref [] in
    List.iter
      (fun sku ->
        let quantity = on_hand store sku in
        match average_cost store sku with
        | exception Unknown_sku _ -> missing := sku :: !missing
        | unit_cost ->
            let value = quantity * unit_cost in
            total := !total + value;
            line "%-12s %8d %14s %14s" sku quantity (Money.format unit_cost) (Money.format value))
      skus;
    List.iter
      (fun e ->
        match e.movement with
        | Adjustment reason when e.quantity < 0 ->
            let cost = try average_cost store e.sku with Unknown_sku _ -> 0 in
            shrinkage := !shrinkage + (cost * -e.quantity);
            line "  écart %-10s %6d (%s)" e.sku e.quantity reason
        | Adjustment _ | Receipt _ | Pick _ | Return_to_supplier -> ())
      entries;
    line "";
    line "Total HT   %s" (Money.format !total);
    line "Total TTC  %s" (Money.format (Money.with_vat ~rate:vat_rate !total));
    line "Démarque   %s" (Money.format !shrinkage);
    (match List.rev !missing with
     | [] -> ()
     | skus ->
         line "";
         line "Sans coût d'achat (to check with purchasing):";
         List.iter (fun sku -> line "  - %s" sku) skus);
    let returns =
      List.length (List.filter (fun e -> e.movement = Return_to_supplier) entries)
    in
    if returns > 0 then line "Retours fournisseur: %d" returns;
    let picks =
      List.filter_map
        (fun e -> match e.movement with Pick { order_id } -> Some order_id | _ -> None)
        entries
    in
    let orders = List.length (List.sort_uniq compare picks) in
    line "Commandes préparées: %d" orders;
    if orders > 0 then
      line "Moyenne par commande: %s"
        (Money.format (!total / max 1 orders));
    let busiest =
      List.fold_left
        (fun (best, count) sku ->
          let picked =
            List.fold_left
              (fun acc e ->
                match e.movement with
                | Pick _ when e.sku = sku -> acc - e.quantity
                | _ -> acc)
              0 entries
          in
          if picked > count then (Some sku, picked) else (best, count))
        (None, 0) skus
    in
    (match busiest with
     | Some sku, count -> line "Plus demandé: %s (%d unités)" sku count
     | None, _ -> ());
    line "Généré le %.0f" (Unix.time ());
    Buffer.contents buffer
end

(** An in-memory store, for the handheld scanners' offline mode and tests. *)
class memory_store = object (self)
  val mutable lines : entry list = []

  (** Appends an entry; the newest comes first internally. *)
  method append entry = lines <- entry :: lines

  (** Entries in the order they were recorded. *)
  method entries = List.rev lines

  (** Number of entries recorded since [since]. *)
  method count_since since =
    List.length (List.filter (fun e -> e.at >= since) self#entries)

  method clear = lines <- []
end

(** The memory store as a [STORE], so that [Make] can run over it. *)
module Memory : STORE with type t = memory_store = struct
  type t = memory_store

  let append store entry = store#append entry
  let entries store = store#entries
end

module Ledger = Make (Memory)

let () =
  let store = new memory_store in
  Ledger.receive store ~supplier:"Brûlerie Rivoire" ~unit_cost:740 "CAF-250" 40;
  ignore (Ledger.pick store ~order_id:"A-1042" "CAF-250" 3);
  print_string (Ledger.nightly_report store ~vat_rate:20)
