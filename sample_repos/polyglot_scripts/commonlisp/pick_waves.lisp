;;;; pick_waves.lisp --- pick waves for the Lyon warehouse's morning shift
;;;;
;;;; The orders paid before the cut-off are picked in waves: one run of waves
;;;; per zone of the floor, each wave under what a picking cart carries, rush
;;;; orders first. The waves are printed for the shift lead at 6:00.

(defpackage #:shop.picking
  (:use #:cl)
  (:export #:order #:pick-line #:priority #:build-pick-waves #:print-wave))

(in-package #:shop.picking)

(defparameter *cart-capacity-grams* 40000
  "What one picking cart may carry, in grams.")

(defconstant +rush-priority+ 0)

(defvar *zones* '(:ambient :chilled :bulky)
  "The zones of the floor, in the order the pickers walk them.")

;;; Orders and their lines

(defclass order ()
  ((id :initarg :id :reader order-id)
   (lines :initarg :lines :initform '() :reader order-lines)
   (rush :initarg :rush :initform nil :reader rush-p
         :documentation "Paid for next-day delivery: picked first.")
   (paid-at :initarg :paid-at :reader paid-at
            :documentation "Universal time of the payment."))
  (:documentation "A paid order waiting to be picked."))

(defstruct (pick-line (:conc-name line-))
  "One SKU of an order: how many, where it is shelved, what one weighs."
  sku
  (qty 1 :type (integer 1))
  zone
  (grams 0 :type (integer 0)))

(define-condition overweight-line (error)
  ((line :initarg :line :reader overweight-line-line))
  (:report (lambda (condition stream)
             (format stream "Line ~A is heavier than a cart."
                     (line-sku (overweight-line-line condition))))))

;;; Priorities: smaller is picked earlier

(defgeneric priority (thing)
  (:documentation "Where THING goes in the picking order: smaller first."))

(defmethod priority ((o order))
  (if (rush-p o) +rush-priority+ (paid-at o)))

(defmethod priority ((line pick-line))
  ;; Heavy lines first, so that they end up at the bottom of the cart.
  (- (line-grams line)))

(defmethod priority :around ((o order))
  ;; An order without lines has nothing to pick: last.
  (if (order-lines o) (call-next-method) most-positive-fixnum))

(defun line-weight (line)
  (* (line-qty line) (line-grams line)))

(defmacro do-zone-lines ((line zone orders) &body body)
  "Runs BODY with LINE bound to each line of ORDERS shelved in ZONE."
  (let ((order (gensym "ORDER")))
    `(dolist (,order ,orders)
       (dolist (,line (order-lines ,order))
         (when (eq (line-zone ,line) ,zone)
           ,@body)))))

(defun build-pick-waves (orders &key (capacity *cart-capacity-grams*))
  "Groups the lines of ORDERS into waves: per zone, in priority order, each
wave under CAPACITY grams. Returns an alist of (zone . waves). A line heavier
than a cart signals OVERWEIGHT-LINE."
  (let ((sorted (sort (copy-list orders) #'< :key #'priority))
        (result '()))
    (dolist (zone *zones* (nreverse result))
      (let ((waves '())
            (current '())
            (load 0))
        (do-zone-lines (line zone sorted)
          (let ((weight (line-weight line)))
            (when (> weight capacity)
              (error 'overweight-line :line line))
            (when (and current (> (+ load weight) capacity))
              (push (nreverse current) waves)
              (setf current '()
                    load 0))
            (push line current)
            (incf load weight)))
        (when current
          (push (nreverse current) waves))
        (push (cons zone (nreverse waves)) result)))))

(defun print-wave (zone wave &optional (stream *standard-output*))
  "Prints one wave as the shift lead's sheet."
  (format stream "~&Zone ~A, ~D lines, ~,1F kg~%"
          zone (length wave) (/ (reduce #'+ wave :key #'line-weight) 1000))
  (dolist (line wave)
    (format stream "  ~A x~D~%" (line-sku line) (line-qty line))))

#+sbcl
(defun spool-waves (waves path)
  "Writes every wave to PATH, the label printer's spool (the SBCL build only)."
  (with-open-file (out path :direction :output :if-exists :supersede)
    (dolist (entry waves)
      (dolist (wave (cdr entry))
        (print-wave (car entry) wave out)))))
