# Reorder planning for the warehouse: reads the nightly stock export, keeps a ledger of
# movements per SKU and writes the purchase suggestions the buyers review each morning.
#
# Prices are in euro cents throughout; the report formats them as "12,50 €" for the buyers.

library(R6)

#' Null-coalescing helper: the left side unless it is NULL.
#'
#' @param a a value, possibly NULL
#' @param b the fallback
`%||%` <- function(a, b) if (is.null(a)) b else a

#' Format euro cents the way the buyers read them ("1.234,50 €").
#'
#' @param cents an integer amount in cents
#' @return a character vector
format_euro <- function(cents) {
  euros <- formatC(cents / 100, format = "f", digits = 2, big.mark = ".", decimal.mark = ",")
  paste0(euros, " €")
}

#' A ledger of stock movements for one warehouse.
#'
#' Every receipt and shipment is a row; the stock on hand is their sum, so a
#' correction is a movement too, never an edit.
StockLedger <- R6Class("StockLedger",
  public = list(
    warehouse = NULL,

    #' @param warehouse the warehouse code, e.g. "HAM-1"
    initialize = function(warehouse) {
      self$warehouse <- warehouse
      private$moves <- data.frame(sku = character(), qty = integer(), reason = character())
    },

    #' Record goods received from a supplier.
    receive = function(sku, qty, supplier = NA) {
      stopifnot(qty > 0)
      private$append(sku, qty, paste("receipt", supplier %||% "unknown"))
      invisible(self)
    },

    #' Record goods shipped to a customer; refuses to go below zero.
    ship = function(sku, qty) {
      if (self$on_hand(sku) < qty) {
        stop(sprintf("not enough %s in %s: %d left", sku, self$warehouse, self$on_hand(sku)))
      }
      private$append(sku, -qty, "shipment")
      invisible(self)
    },

    on_hand = function(sku) {
      rows <- private$moves[private$moves$sku == sku, ]
      sum(rows$qty)
    },

    skus = function() unique(private$moves$sku)
  ),
  private = list(
    moves = NULL,

    append = function(sku, qty, reason) {
      row <- data.frame(sku = sku, qty = as.integer(qty), reason = reason)
      private$moves <- rbind(private$moves, row)
    }
  )
)

setClass("Supplier", representation(name = "character", lead_days = "numeric"))

setGeneric("describe", function(object) standardGeneric("describe"))

# Suppliers print with their lead time, which the buyers plan around.
setMethod("describe", "Supplier", function(object) {
  cat(sprintf("%s (lead time %d days)\n", object@name, as.integer(object@lead_days)))
  invisible(object)
})

#' Build the morning's purchase suggestions.
#'
#' For each SKU in the ledger: the average daily demand over the window, the safety stock
#' for the supplier's lead time, and how much to order to get back to the target level.
#'
#' @param ledger a StockLedger
#' @param demand a data frame of daily shipments: sku, day, qty
#' @param catalog a data frame of sku, unit_cents, supplier, lead_days, pack_size
#' @param window_days how many days of demand to average over
#' @param service_z the z-score of the service level (1.65 is about 95 %)
#' @return a data frame, one row per SKU to order, most urgent first
reorder_report <- function(ledger, demand, catalog, window_days = 28, service_z = 1.65) {
  if (nrow(catalog) == 0) {
    warning("empty catalog: nothing to plan")
    return(data.frame())
  }

  # Round an order up to whole packs: suppliers ship cartons, not pieces.
  round_to_pack <- function(qty, pack) {
    ifelse(pack > 1, ceiling(qty / pack) * pack, ceiling(qty))
  }

  recent <- demand[demand$day > max(demand$day) - window_days, ]
  daily <- aggregate(qty ~ sku, data = recent, FUN = sum)
  daily$per_day <- daily$qty / window_days
  spread <- aggregate(qty ~ sku, data = recent, FUN = sd)
  names(spread)[2] <- "sd"

  rows <- list()
  for (sku in ledger$skus()) {
    item <- catalog[catalog$sku == sku, ]
    if (nrow(item) == 0) {
      message("SKU ", sku, " is not in the catalog; skipped")
      next
    }
    per_day <- daily$per_day[daily$sku == sku]
    per_day <- if (length(per_day) == 0) 0 else per_day
    sd_day <- spread$sd[spread$sku == sku]
    sd_day <- if (length(sd_day) == 0 || is.na(sd_day)) 0 else sd_day

    lead <- item$lead_days
    safety <- service_z * sd_day * sqrt(lead)
    reorder_point <- per_day * lead + safety
    on_hand <- ledger$on_hand(sku)
    if (on_hand > reorder_point) {
      next
    }

    target <- reorder_point + per_day * window_days
    qty <- round_to_pack(target - on_hand, item$pack_size)
    days_left <- if (per_day > 0) on_hand / per_day else Inf
    rows[[length(rows) + 1]] <- data.frame(
      sku = sku,
      supplier = item$supplier,
      on_hand = on_hand,
      reorder_point = round(reorder_point, 1),
      order_qty = qty,
      cost = format_euro(qty * item$unit_cents),
      days_left = round(days_left, 1),
      stringsAsFactors = FALSE
    )
  }

  if (length(rows) == 0) {
    message("Alles auf Lager: no SKU below its reorder point")
    return(data.frame())
  }
  report <- do.call(rbind, rows)
  report <- report[order(report$days_left), ]
  rownames(report) <- NULL
  report$urgent <- report$days_left < 3
  report
}

#' Write the report where the buyers' sheet picks it up.
write_report <- function(report, path = file.path("out", "reorder.csv")) {
  dir.create(dirname(path), showWarnings = FALSE, recursive = TRUE)
  write.csv(report, path, row.names = FALSE, fileEncoding = "UTF-8")
  message(sprintf("%d lines written to %s", nrow(report), path))
  invisible(path)
}

main <- function(args = commandArgs(trailingOnly = TRUE)) {
  stock <- read.csv(args[[1]] %||% "stock.csv", stringsAsFactors = FALSE)
  ledger <- StockLedger$new("HAM-1")
  for (i in seq_len(nrow(stock))) {
    ledger$receive(stock$sku[i], stock$qty[i], stock$supplier[i])
  }
  demand <- read.csv("demand.csv", stringsAsFactors = FALSE)
  catalog <- read.csv("catalog.csv", stringsAsFactors = FALSE)
  write_report(reorder_report(ledger, demand, catalog))
}

if (sys.nframe() == 0) {
  main()
}
