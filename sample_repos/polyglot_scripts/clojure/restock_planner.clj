;; Nightly restock planning for the warehouse's shelf bins.
;;
;; The planner reads the stock export (one map per bin), prices each reorder line in the
;; supplier's currency and groups the lines into purchase orders, one per supplier. Bins
;; flagged "discontinued" are skipped; a bin without a supplier goes to the review queue.

(ns shop.inventory.restock-planner
  "Reorder lines and purchase orders from the nightly stock export."
  (:require [clojure.string :as str]
            [clojure.set :as set]))

(def ^:private default-lead-days
  "Days a supplier takes to deliver when its record does not say."
  7)

(defonce review-queue (atom []))

;; ---- Money ----

(defprotocol Priced
  "Anything that has a unit price and can be rounded to the cent."
  (unit-cents [this] "The unit price in cents, in the item's own currency.")
  (line-cents [this qty] "The price of `qty` units, rounded half up.")
  (currency [this] "The ISO 4217 code the price is in."))

(defrecord SupplierPrice [sku cents currency-code pack-size]
  Priced
  (unit-cents [_]
    ;; Prices are quoted per pack: a unit costs its share, rounded up to the cent.
    (long (Math/ceil (/ cents (max 1 pack-size)))))
  (line-cents [this qty]
    (let [packs (long (Math/ceil (/ qty (max 1 pack-size))))]
      (* packs cents)))
  (currency [_]
    currency-code))

(defn format-cents
  "Renders cents as a price label: 1234 EUR is \"12,34 €\", 1234 USD is \"$12.34\"."
  [cents code]
  (let [whole (quot cents 100)
        part (format "%02d" (rem cents 100))]
    (case code
      "EUR" (str whole "," part " €")
      "GBP" (str "£" whole "." part)
      (str "$" whole "." part))))

;; ---- Reorder rules, by the bin's velocity class ----

(defmulti reorder-qty
  "How many units to order for a bin, by its velocity class (:fast, :slow, :seasonal)."
  (fn [bin _today] (:velocity bin)))

(defmethod reorder-qty :fast [{:keys [on-hand par daily-sales]} _today]
  ;; Fast movers are topped up to par plus a week of sales.
  (max 0 (- (+ par (* 7 daily-sales)) on-hand)))

(defmethod reorder-qty :seasonal [{:keys [on-hand par season-months]} today]
  (if (contains? season-months (.getMonthValue today))
    (max 0 (- (* 2 par) on-hand))
    0))

(defmethod reorder-qty :default [{:keys [on-hand par]} _today]
  (max 0 (- par on-hand)))

(defmacro with-review
  "Runs `body`; a bin it throws on is queued for review with the reason, not lost."
  [bin & body]
  `(try
     ~@body
     (catch Exception e#
       (swap! review-queue conj {:bin (:id ~bin) :reason (.getMessage e#)})
       nil)))

(defn- supplier-of
  "The supplier record for a bin, or nil when the bin has none on file."
  [suppliers bin]
  (get suppliers (:supplier-id bin)))

(defn- lead-days [supplier]
  (or (:lead-days supplier) default-lead-days))

;; ---- The plan ----

(defn plan-restock
  "Builds the purchase orders for one night's export.

  `bins` is the stock export, `suppliers` a map of supplier id to record (with its price
  list), `today` a java.time.LocalDate. Returns {:orders [...] :skipped [...] :total-cents
  {currency cents}}; every order lists its lines, its delivery date and its total."
  [bins suppliers today]
  (let [active (remove #(= "discontinued" (:status %)) bins)
        skipped (filter #(= "discontinued" (:status %)) bins)
        ;; Lines first: one per bin that needs stock and has a priced supplier.
        lines (keep (fn [bin]
                      (with-review bin
                        (let [supplier (supplier-of suppliers bin)
                              qty (reorder-qty bin today)]
                          (cond
                            (nil? supplier)
                            (do (swap! review-queue conj {:bin (:id bin) :reason "no supplier"})
                                nil)

                            (zero? qty)
                            nil

                            :else
                            (let [price (get-in supplier [:prices (:sku bin)])]
                              (when-not price
                                (throw (ex-info (str "no price for " (:sku bin)) {:sku (:sku bin)})))
                              {:supplier-id (:id supplier)
                               :sku (:sku bin)
                               :bin (:id bin)
                               :qty qty
                               :cents (line-cents price qty)
                               :currency (currency price)
                               :deliver-by (.plusDays today (lead-days supplier))})))))
                    active)
        ;; Then one order per supplier, its lines sorted by bin so pickers walk the aisle once.
        orders (for [[supplier-id supplier-lines] (group-by :supplier-id lines)]
                 (let [sorted (sort-by :bin supplier-lines)
                       code (:currency (first sorted))
                       total (reduce + (map :cents sorted))]
                   {:supplier supplier-id
                    :lines (vec sorted)
                    :currency code
                    :deliver-by (reduce (fn [a b] (if (neg? (compare a b)) b a))
                                        (map :deliver-by sorted))
                    :total-cents total
                    :label (format-cents total code)}))
        ;; Totals by currency: a supplier in Zürich bills in CHF, one in Lyon in EUR.
        totals (reduce (fn [acc {:keys [currency total-cents]}]
                         (update acc currency (fnil + 0) total-cents))
                       {}
                       orders)
        suppliers-used (set (map :supplier orders))
        idle (set/difference (set (keys suppliers)) suppliers-used)]
    (when (seq idle)
      (println "suppliers with nothing to order:" (str/join ", " (sort idle))))
    (when (seq @review-queue)
      (println (count @review-queue) "bins wait for review"))
    {:orders (vec (sort-by :supplier orders))
     :skipped (mapv :id skipped)
     :idle (vec (sort idle))
     :total-cents totals}))

(defn summary
  "One line per order for the morning report."
  [{:keys [orders]}]
  (str/join "\n"
            (for [{:keys [supplier lines label deliver-by]} orders]
              (format "%-12s %3d lines  %12s  by %s" supplier (count lines) label deliver-by))))

(comment
  ;; At the REPL: plan tonight's export against the test suppliers.
  (def suppliers {"acme" {:id "acme" :prices {"SKU-1" (->SupplierPrice "SKU-1" 1200 "EUR" 6)}}})
  (plan-restock [{:id "A-01" :sku "SKU-1" :supplier-id "acme" :velocity :fast
                  :on-hand 3 :par 12 :daily-sales 2}]
                suppliers
                (java.time.LocalDate/now))
  @review-queue)
