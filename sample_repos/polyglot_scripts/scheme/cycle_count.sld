;;; Cycle counts of the Lyon warehouse, reconciled with the stock ledger.
;;;
;;; Every night the handheld scanners upload what the pickers counted in a few
;;; bins. This library compares each count with what the ledger says the bin
;;; holds, flags the bins that are off by more than their tolerance, and writes
;;; the adjustment lines the stock controller signs off in the morning.

(define-library (shop cycle-count)
  (export make-count count? count-bin count-sku count-units
          tolerance-for discrepancy reconcile adjustment-lines print-report
          with-upload)
  (import (scheme base)
          (scheme write)
          (srfi 1)
          (srfi 132))
  (begin

    ;; One scanner line: a bin, a SKU, the units counted in it and who counted.
    (define-record-type count
      (make-count bin sku units counted-by)
      count?
      (bin count-bin)
      (sku count-sku)
      (units count-units)
      (counted-by count-counted-by))

    ;; Units a count may be off before anyone looks at it, by the SKU's
    ;; velocity class: fast movers are miscounted more often, and a slow
    ;; mover's bin must match the ledger to the unit.
    (define tolerances
      '((fast . 3) (medium . 2) (slow . 0)))

    (define (tolerance-for velocity)
      (let ((found (assq velocity tolerances)))
        (if found (cdr found) 0)))

    ;; The units the ledger records for a SKU in a bin (0 when it has no
    ;; entry: a bin the pickers filled without booking it).
    (define (ledger-units ledger bin sku)
      (let ((entry (find (lambda (e)
                           (and (equal? (car e) bin) (equal? (cadr e) sku)))
                         ledger)))
        (if entry (caddr entry) 0)))

    ;; Counted minus recorded: positive when the bin holds more than the
    ;; ledger thinks.
    (define (discrepancy count ledger)
      (- (count-units count)
         (ledger-units ledger (count-bin count) (count-sku count))))

    ;; Runs the body with the counts of one scanner's upload, and does
    ;; nothing when the upload is empty (a scanner that was not used).
    (define-syntax with-upload
      (syntax-rules ()
        ((_ (name upload) body ...)
         (let ((name upload))
           (unless (null? name) body ...)))))

    ;; Reconciles a night's counts: the counts that are off by more than their
    ;; tolerance, each paired with its difference, worst first. A bin counted
    ;; twice keeps its latest count only.
    (define (reconcile counts ledger velocity-of)
      (define (key count)
        (cons (count-bin count) (count-sku count)))
      (define (latest-per-bin counts)
        (let loop ((rest (reverse counts)) (seen '()) (kept '()))
          (cond ((null? rest) kept)
                ((member (key (car rest)) seen)
                 (loop (cdr rest) seen kept))
                (else
                 (loop (cdr rest)
                       (cons (key (car rest)) seen)
                       (cons (car rest) kept))))))
      (define (off? count)
        (> (abs (discrepancy count ledger))
           (tolerance-for (velocity-of (count-sku count)))))
      (define flagged
        (filter off? (latest-per-bin counts)))
      (list-sort (lambda (a b) (> (abs (cdr a)) (abs (cdr b))))
                 (map (lambda (count) (cons count (discrepancy count ledger)))
                      flagged)))

    ;; The lines the stock controller signs, one per flagged bin:
    ;; "A-12-03 SKU-4411 +2 (counted by mireille)".
    (define (adjustment-lines flagged)
      (map (lambda (entry)
             (let ((count (car entry))
                   (diff (cdr entry)))
               (string-append (count-bin count) " " (count-sku count) " "
                              (if (positive? diff) "+" "")
                              (number->string diff)
                              " (counted by " (count-counted-by count) ")")))
           flagged))

    ;; Prints the morning report on the current output port.
    (define (print-report flagged)
      (display "Cycle count: ")
      (display (length flagged))
      (display " bins to adjust")
      (newline)
      (for-each (lambda (line)
                  (display "  ")
                  (display line)
                  (newline))
                (adjustment-lines flagged)))))
