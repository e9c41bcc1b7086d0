(* Interface of the Lyon warehouse's stock ledger (see stock_ledger.ml). *)

(** A stock keeping unit, as printed on the shelf label. *)
type sku = string

(** Why a quantity moved. *)
type movement =
  | Receipt of { supplier : string; unit_cost : int }
  | Pick of { order_id : string }
  | Adjustment of string  (** free text from the stock count, e.g. "casse" *)
  | Return_to_supplier

type entry = { sku : sku; quantity : int; movement : movement; at : float }

exception Unknown_sku of sku

(** Prices and rounding rules; amounts are in euro cents. *)
module Money : sig
  val cents_of_euros : float -> int

  (** [format 123456] is ["1 234,56 €"]. *)
  val format : int -> string

  val with_vat : rate:int -> int -> int
end

(** What a ledger needs from a store of entries. *)
module type STORE = sig
  type t

  val append : t -> entry -> unit
  val entries : t -> entry list
end

(** The ledger over any store. *)
module Make (S : STORE) : sig
  val on_hand : S.t -> sku -> int
  val receive : S.t -> supplier:string -> unit_cost:int -> sku -> int -> unit
  val pick : S.t -> order_id:string -> sku -> int -> (int, string) result
  val average_cost : S.t -> sku -> int

  (** The nightly valuation for accounting. *)
  val nightly_report : S.t -> vat_rate:int -> string
end

(** An in-memory store, for the handheld scanners' offline mode. *)
class memory_store : object
  method append : entry -> unit
  method entries : entry list
  method count_since : float -> int
  method clear : unit
end

external now : unit -> float = "caml_sys_time"
