      *================================================================*
      * SHIFTREC - one picker's shift, as the aisle pick stations of  *
      * the Lyon warehouse log it at the end of each shift. Copied    *
      * into PICKPAY (the weekly pay) and STOCKMOV (picks per aisle). *
      *================================================================*
       01  SHIFT-RECORD.
           05  SR-PICKER-ID              PIC X(6).
           05  SR-PICKER-NAME            PIC X(24).
           05  SR-HOURLY-RATE            PIC 9(2)V99.

      * When and where the shift was worked.
           05  SR-SHIFT.
               10  SR-SHIFT-DATE         PIC 9(8).
               10  SR-WEEKDAY            PIC 9.
                   88  SR-SUNDAY             VALUE 7.
               10  SR-SHIFT-CODE         PIC X.
                   88  SR-MORNING-SHIFT      VALUE "M".
                   88  SR-AFTERNOON-SHIFT    VALUE "A".
                   88  SR-NIGHT-SHIFT        VALUE "N".
               10  SR-STATION-ID         PIC X(4).
               10  SR-AISLE              PIC 9(3).

      * What the pick station counted during the shift.
           05  SR-WORK.
               10  SR-HOURS              PIC 9(2)V99.
               10  SR-BREAK-MINUTES      PIC 9(3).
               10  SR-PICKS              PIC 9(5).
               10  SR-PARCELS            PIC 9(4).
               10  SR-MISPICKS           PIC 9(3).
               10  SR-SHORT-PICKS        PIC 9(3).

      * Set by the supervisor when the shift is corrected by hand.
           05  SR-CORRECTION.
               10  SR-CORRECTED-FLAG     PIC X.
                   88  SR-CORRECTED          VALUE "Y".
               10  SR-CORRECTED-BY       PIC X(6).
               10  SR-CORRECTION-NOTE    PIC X(40).
