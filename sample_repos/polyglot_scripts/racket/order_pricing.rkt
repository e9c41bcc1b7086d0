#lang racket/base
;; Prices a checkout order for the storefront: line totals, the best promotion
;; on each line, the customer's tier discount and VAT. Amounts are exact
;; integers of cents throughout; a rational is rounded half up only where the
;; finance team books a rounded amount.

(require racket/contract
         racket/string)

(provide (struct-out line)
         (struct-out promo)
         (struct-out order-total)
         (contract-out
          [price-order (-> (listof line?) symbol? (listof promo?) order-total?)]
          [format-cents (-> exact-integer? string?)]))

;; One order line: a SKU, how many, and the unit price in cents.
(struct line (sku qty unit-cents) #:transparent)

;; A promotion on the SKUs that start with its prefix: a percentage off
;; ('percent 10), or every nth unit free ('bundle 3: "3 for 2").
(struct promo (prefix kind amount) #:transparent)

;; What the checkout page shows under the cart.
(struct order-total (subtotal discount vat total) #:transparent)

;; Discount by customer tier, in percent of what is left after promotions.
(define tier-discounts
  (hash 'retail 0 'trade 8 'wholesale 15))

(define vat-percent 20)

;; Rounds a rational number of cents half up.
(define (round-cents amount)
  (floor (+ amount 1/2)))

(define/contract (line-cents l)
  (-> line? exact-nonnegative-integer?)
  (* (line-qty l) (line-unit-cents l)))

;; What one promotion takes off one line, in cents (0 when it does not apply).
(define (promo-saving p l)
  (cond
    [(not (string-prefix? (line-sku l) (promo-prefix p))) 0]
    [(eq? (promo-kind p) 'percent)
     (round-cents (* (line-cents l) (/ (promo-amount p) 100)))]
    [(eq? (promo-kind p) 'bundle)
     ;; Every nth unit is free.
     (* (quotient (line-qty l) (promo-amount p)) (line-unit-cents l))]
    [else 0]))

;; Prices an order. Each line takes the best promotion that applies to it
;; (promotions never stack on one line); the tier discount applies to what is
;; left, and VAT to the discounted amount.
(define (price-order lines tier promos)
  (define (best-saving l)
    (for/fold ([best 0]) ([p (in-list promos)])
      (max best (promo-saving p l))))
  (define subtotal
    (for/sum ([l (in-list lines)]) (line-cents l)))
  (define promo-total
    (for/sum ([l (in-list lines)]) (best-saving l)))
  (define after-promos (- subtotal promo-total))
  (define tier-total
    (round-cents (* after-promos (/ (hash-ref tier-discounts tier 0) 100))))
  (define discounted (- after-promos tier-total))
  (define vat (round-cents (* discounted (/ vat-percent 100))))
  (order-total subtotal (+ promo-total tier-total) vat (+ discounted vat)))

;; 1234 is "12.34", -5 is "-0.05".
(define (format-cents cents)
  (define sign (if (negative? cents) "-" ""))
  (define whole (quotient (abs cents) 100))
  (define part (remainder (abs cents) 100))
  (string-append sign (number->string whole) "."
                 (if (< part 10) "0" "") (number->string part)))

;; Binds name to a tier's discount percent for the body.
(define-syntax-rule (with-tier-percent (name tier) body ...)
  (let ([name (hash-ref tier-discounts tier 0)])
    body ...))

(module+ test
  (require rackunit)

  (define cart
    (list (line "TEA-001" 3 450) (line "MUG-010" 1 1200)))

  (check-equal? (format-cents 1234) "12.34")
  (check-equal? (format-cents -5) "-0.05")
  (check-equal? (order-total-total (price-order cart 'retail '())) 3060)
  (check-equal? (order-total-discount
                 (price-order cart 'retail (list (promo "TEA" 'bundle 3))))
                450)
  (check-equal? (with-tier-percent (p 'trade) p) 8))
