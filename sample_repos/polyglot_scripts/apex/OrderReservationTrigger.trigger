/**
 * Holds and gives back stock as B2B orders move through their statuses.
 *
 * - An order activated by sales holds its lines in the bins (StockReservationService).
 * - An order cancelled, or deleted before it shipped, gives its holds back at once rather
 *   than waiting for the nightly expiry job.
 * - An order may not be activated for a site whose dock is closed for inventory.
 *
 * The logic stayed in the trigger when the org was split into packages; the reservation
 * rules themselves are the service's.
 */
trigger OrderReservationTrigger on Order (before update, after update, before delete, after delete) {
    // Sites whose dock is closed today (a stock count, a strike): set by the site managers.
    Set<String> closedSites = new Set<String>();
    for (Warehouse_Site__c site : [
        SELECT Code__c
        FROM Warehouse_Site__c
        WHERE Dock_Closed_On__c = TODAY
    ]) {
        closedSites.add(site.Code__c);
    }

    if (Trigger.isBefore && Trigger.isUpdate) {
        for (Order order : Trigger.new) {
            Order previous = Trigger.oldMap.get(order.Id);
            Boolean activating = order.Status == 'Activated' && previous.Status != 'Activated';
            if (activating && closedSites.contains(order.Site__c)) {
                order.addError('The dock of ' + order.Site__c + ' is closed today: activate the order tomorrow.');
            }
            // Rush orders jump the pick queue; sales may not lower a rush once it is held.
            if (previous.Priority__c == 'Rush' && order.Priority__c != 'Rush' && previous.Status == 'Activated') {
                order.Priority__c.addError('A held rush order stays a rush order.');
            }
        }
    }

    if (Trigger.isBefore && Trigger.isDelete) {
        for (Order order : Trigger.old) {
            if (order.Status == 'Shipped') {
                order.addError('A shipped order is kept for the carriers\' claims.');
            }
        }
    }

    if (Trigger.isAfter && Trigger.isUpdate) {
        // Orders activated by this update, grouped by their site: one service per site.
        Map<String, Set<Id>> activatedBySite = new Map<String, Set<Id>>();
        Set<Id> cancelled = new Set<Id>();
        for (Order order : Trigger.new) {
            Order previous = Trigger.oldMap.get(order.Id);
            if (order.Status == previous.Status) {
                continue;
            }
            if (order.Status == 'Activated') {
                if (!activatedBySite.containsKey(order.Site__c)) {
                    activatedBySite.put(order.Site__c, new Set<Id>());
                }
                activatedBySite.get(order.Site__c).add(order.Id);
            } else if (order.Status == 'Cancelled') {
                cancelled.add(order.Id);
            }
        }

        List<StockReservationService.Shortfall> shortfalls = new List<StockReservationService.Shortfall>();
        for (String siteCode : activatedBySite.keySet()) {
            StockReservationService service = new StockReservationService(siteCode);
            service.reserveOrders(activatedBySite.get(siteCode));
            shortfalls.addAll(service.shortfalls);
        }
        if (!shortfalls.isEmpty()) {
            // The buyers' summary: one task per order held short, on the order's owner.
            List<Task> tasks = new List<Task>();
            for (StockReservationService.Shortfall gap : shortfalls) {
                tasks.add(new Task(
                    Subject = 'Short on ' + gap.sku + ': ' + gap.missing() + ' units',
                    WhatId = gap.orderItemId,
                    Priority = gap.reason == StockReservationService.ShortReason.BIN_BLOCKED ? 'High' : 'Normal'
                ));
            }
            insert tasks;
        }
        if (!cancelled.isEmpty()) {
            StockReservationService.releaseOrders(cancelled);
        }
    }

    if (Trigger.isAfter && Trigger.isDelete) {
        // The lines are gone with the order; their holds point at nothing and are given back.
        List<Stock_Reservation__c> orphans = [
            SELECT Id, Quantity__c, Stock_Item__c
            FROM Stock_Reservation__c
            WHERE Status__c = 'Held' AND Order_Item__c = null
        ];
        Map<Id, Decimal> givenBack = new Map<Id, Decimal>();
        for (Stock_Reservation__c hold : orphans) {
            Decimal before = givenBack.containsKey(hold.Stock_Item__c) ? givenBack.get(hold.Stock_Item__c) : 0;
            givenBack.put(hold.Stock_Item__c, before + hold.Quantity__c);
        }
        List<Stock_Item__c> bins = [SELECT Id, Reserved__c FROM Stock_Item__c WHERE Id IN :givenBack.keySet()];
        for (Stock_Item__c bin : bins) {
            bin.Reserved__c -= givenBack.get(bin.Id);
        }
        update bins;
        delete orphans;
    }
}
