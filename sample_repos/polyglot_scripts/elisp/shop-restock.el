;;; shop-restock.el --- The buyers' restock list, in Emacs  -*- lexical-binding: t; -*-

;;; Commentary:

;; The buyers review the nightly restock suggestions in Emacs: a list of the
;; bins below their reorder point, with the units to order from each supplier.
;; `shop-restock-list' opens it; RET on a line approves that order.

;;; Code:

(require 'cl-lib)
(require 'tabulated-list)

(defgroup shop-restock nil
  "Review the warehouse's restock suggestions."
  :group 'tools
  :prefix "shop-restock-")

(defcustom shop-restock-export-file "~/shop/restock.tsv"
  "Where the nightly export of restock suggestions is saved."
  :type 'file
  :group 'shop-restock)

(defcustom shop-restock-safety-days 3
  "Days of sales kept on the shelf on top of the supplier's lead time."
  :type 'integer
  :group 'shop-restock)

(defvar shop-restock--approved nil
  "SKUs approved in this session, in the order they were approved.")

(defconst shop-restock-columns
  [("SKU" 12 t) ("Bin" 8 t) ("On hand" 8 t) ("Order" 8 t) ("Supplier" 20 t)]
  "Columns of the restock list.")

(cl-defstruct (shop-restock-line (:constructor shop-restock-line-create))
  "One suggestion: a bin below its reorder point."
  sku bin on-hand daily-sales lead-days supplier)

(defun shop-restock-quantity (line)
  "Units to order for LINE: its sales over the lead time and safety days."
  (let* ((days (+ (shop-restock-line-lead-days line) shop-restock-safety-days))
         (need (* days (shop-restock-line-daily-sales line))))
    (max 0 (- (ceiling need) (shop-restock-line-on-hand line)))))

(defun shop-restock--parse-line (text)
  "A `shop-restock-line' from TEXT, one tab-separated line of the export."
  (pcase-let ((`(,sku ,bin ,on-hand ,sales ,lead ,supplier) (split-string text "\t")))
    (shop-restock-line-create
     :sku sku :bin bin
     :on-hand (string-to-number on-hand)
     :daily-sales (string-to-number sales)
     :lead-days (string-to-number lead)
     :supplier supplier)))

(defun shop-restock-read-export (&optional file)
  "Read the restock suggestions from FILE, the nightly export by default.
Lines without six fields are skipped and counted in a message, so that a
truncated export still shows what it has."
  (let ((file (or file shop-restock-export-file))
        (lines '())
        (skipped 0))
    (with-temp-buffer
      (insert-file-contents file)
      (dolist (text (split-string (buffer-string) "\n" t))
        (if (= (length (split-string text "\t")) 6)
            (push (shop-restock--parse-line text) lines)
          (setq skipped (1+ skipped)))))
    (when (> skipped 0)
      (message "shop-restock: skipped %d malformed lines in %s" skipped file))
    (nreverse lines)))

(defmacro shop-restock-with-line (var &rest body)
  "Run BODY with VAR bound to the restock line at point."
  (declare (indent 1))
  `(let ((,var (tabulated-list-get-id)))
     (if ,var (progn ,@body) (user-error "No restock line here"))))

(cl-defgeneric shop-restock-describe (line)
  "A one-line description of LINE for the echo area.")

(cl-defmethod shop-restock-describe ((line shop-restock-line))
  (format "%s in %s: order %d from %s"
          (shop-restock-line-sku line) (shop-restock-line-bin line)
          (shop-restock-quantity line) (shop-restock-line-supplier line)))

(defun shop-restock-approve ()
  "Approve the suggestion at point."
  (interactive)
  (shop-restock-with-line line
    (cl-pushnew (shop-restock-line-sku line) shop-restock--approved :test #'equal)
    (message "Approved: %s" (shop-restock-describe line))))

(defvar shop-restock-mode-map
  (let ((map (make-sparse-keymap)))
    (define-key map (kbd "RET") #'shop-restock-approve)
    map)
  "Keymap of `shop-restock-mode'.")

(define-derived-mode shop-restock-mode tabulated-list-mode "Restock"
  "Major mode of the buyers' restock list."
  (setq tabulated-list-format shop-restock-columns)
  (tabulated-list-init-header))

;;;###autoload
(defun shop-restock-list ()
  "Show the restock suggestions of the last export."
  (interactive)
  (let ((buffer (get-buffer-create "*Restock*")))
    (with-current-buffer buffer
      (shop-restock-mode)
      (setq tabulated-list-entries
            (mapcar (lambda (line)
                      (list line
                            (vector (shop-restock-line-sku line)
                                    (shop-restock-line-bin line)
                                    (number-to-string (shop-restock-line-on-hand line))
                                    (number-to-string (shop-restock-quantity line))
                                    (shop-restock-line-supplier line))))
                    (shop-restock-read-export)))
      (tabulated-list-print))
    (pop-to-buffer buffer)))

(ert-deftest shop-restock-quantity-covers-lead-time ()
  (let ((shop-restock-safety-days 2))
    (should (= 18 (shop-restock-quantity
                   (shop-restock-line-create :on-hand 2 :daily-sales 4 :lead-days 3))))))

(provide 'shop-restock)
;;; shop-restock.el ends here
