      *================================================================*
      * PICKPAY - weekly pay of the Lyon warehouse's pickers.          *
      * Reads the week's shifts as the aisle pick stations log them,   *
      * works out overtime, night and Sunday premiums and the pick-    *
      * rate bonus, and prints the payroll office's report.            *
      *================================================================*
       IDENTIFICATION DIVISION.
       PROGRAM-ID. PICKPAY.
       AUTHOR. WAREHOUSE-PAYROLL.
       DATE-WRITTEN. 2024-03-11.

       ENVIRONMENT DIVISION.
       INPUT-OUTPUT SECTION.
       FILE-CONTROL.
           SELECT SHIFT-FILE ASSIGN TO "SHIFTS"
               ORGANIZATION IS SEQUENTIAL
               FILE STATUS IS WS-SHIFT-STATUS.
           SELECT REPORT-FILE ASSIGN TO "PAYRPT"
               ORGANIZATION IS SEQUENTIAL.

       DATA DIVISION.
       FILE SECTION.
      * One shift per record, sorted by picker then date (SHIFTREC).
       FD  SHIFT-FILE.
       01  SHIFT-IN                  PIC X(80).

       FD  REPORT-FILE.
       01  REPORT-LINE               PIC X(132).

       WORKING-STORAGE SECTION.
       01  WS-SWITCHES.
           05  WS-SHIFT-STATUS       PIC XX.
           05  WS-EOF-FLAG           PIC X VALUE "N".
               88  END-OF-SHIFTS         VALUE "Y".
           05  WS-FIRST-FLAG         PIC X VALUE "Y".
               88  FIRST-SHIFT           VALUE "Y".

      * The shift being read, laid out as the pick stations write it.
       COPY SHIFTREC.

      * Pay rules agreed with the works council, in euros per hour.
       01  WS-RATES.
           05  WS-OVERTIME-AFTER     PIC 9(2)V99 VALUE 35.00.
           05  WS-OVERTIME-FACTOR    PIC 9V99    VALUE 1.25.
           05  WS-HEAVY-OT-AFTER     PIC 9(2)V99 VALUE 43.00.
           05  WS-HEAVY-OT-FACTOR    PIC 9V99    VALUE 1.50.
           05  WS-NIGHT-PREMIUM      PIC 9V99    VALUE 2.10.
           05  WS-SUNDAY-FACTOR      PIC 9V99    VALUE 1.40.
           05  WS-TARGET-PICKS-HOUR  PIC 9(3)    VALUE 110.
           05  WS-BONUS-PER-PICK     PIC 9V999   VALUE 0.045.
           05  WS-BONUS-CAP          PIC 9(3)V99 VALUE 180.00.

      * What one picker has earned so far this week.
       01  WS-PICKER-WEEK.
           05  WS-PICKER-ID          PIC X(6).
           05  WS-PICKER-NAME        PIC X(24).
           05  WS-HOURLY-RATE        PIC 9(2)V99.
           05  WS-HOURS.
               10  WS-DAY-HOURS      PIC 9(3)V99.
               10  WS-NIGHT-HOURS    PIC 9(3)V99.
               10  WS-SUNDAY-HOURS   PIC 9(3)V99.
               10  WS-TOTAL-HOURS    PIC 9(3)V99.
           05  WS-PICKS              PIC 9(6).
           05  WS-MISPICKS           PIC 9(4).
           05  WS-PAY.
               10  WS-BASE-PAY       PIC 9(5)V99.
               10  WS-OVERTIME-PAY   PIC 9(5)V99.
               10  WS-PREMIUM-PAY    PIC 9(5)V99.
               10  WS-BONUS-PAY      PIC 9(5)V99.
               10  WS-GROSS-PAY      PIC 9(5)V99.

       01  WS-WORK.
           05  WS-OT-HOURS           PIC 9(3)V99.
           05  WS-HEAVY-HOURS        PIC 9(3)V99.
           05  WS-PICK-RATE          PIC 9(4)V99.
           05  WS-EXTRA-PICKS        PIC 9(6).

       77  WS-PICKERS-PAID           PIC 9(4) VALUE ZERO.
       77  WS-SHIFTS-READ            PIC 9(6) VALUE ZERO.

       01  WS-HEADING.
           05  FILLER                PIC X(40)
               VALUE "LYON WAREHOUSE - PICKERS' WEEKLY PAY".
           05  FILLER                PIC X(92) VALUE SPACES.

       01  WS-DETAIL.
           05  DL-PICKER-ID          PIC X(6).
           05  FILLER                PIC X(2) VALUE SPACES.
           05  DL-PICKER-NAME        PIC X(24).
           05  DL-HOURS              PIC ZZ9.99.
           05  FILLER                PIC X(2) VALUE SPACES.
           05  DL-OVERTIME           PIC ZZ,ZZ9.99.
           05  FILLER                PIC X(2) VALUE SPACES.
           05  DL-BONUS              PIC ZZ,ZZ9.99.
           05  FILLER                PIC X(2) VALUE SPACES.
           05  DL-GROSS              PIC ZZ,ZZ9.99.

       PROCEDURE DIVISION.
       0000-MAIN SECTION.
       0000-RUN.
           PERFORM 1000-OPEN-FILES
           PERFORM 2000-READ-SHIFT
           PERFORM UNTIL END-OF-SHIFTS
               PERFORM 2100-ADD-SHIFT
               PERFORM 2000-READ-SHIFT
           END-PERFORM
           IF NOT FIRST-SHIFT
               PERFORM 3000-CALC-WEEK-PAY
               PERFORM 4000-PRINT-PICKER
           END-IF
           PERFORM 9000-CLOSE-FILES
           STOP RUN.

       1000-FILES SECTION.
      * The report starts with its heading line on a new page.
       1000-OPEN-FILES.
           OPEN INPUT SHIFT-FILE
                OUTPUT REPORT-FILE
           WRITE REPORT-LINE FROM WS-HEADING
               AFTER ADVANCING PAGE.

       9000-CLOSE-FILES.
           CLOSE SHIFT-FILE REPORT-FILE
           DISPLAY "PICKPAY: " WS-SHIFTS-READ " SHIFTS, "
               WS-PICKERS-PAID " PICKERS PAID".

       2000-SHIFTS SECTION.
       2000-READ-SHIFT.
           READ SHIFT-FILE INTO SHIFT-RECORD
               AT END
                   SET END-OF-SHIFTS TO TRUE
               NOT AT END
                   ADD 1 TO WS-SHIFTS-READ
           END-READ.

      * A new picker closes the week of the one before.
       2100-ADD-SHIFT.
           IF NOT FIRST-SHIFT AND SR-PICKER-ID NOT = WS-PICKER-ID
               PERFORM 3000-CALC-WEEK-PAY
               PERFORM 4000-PRINT-PICKER
               INITIALIZE WS-PICKER-WEEK
           END-IF
           MOVE "N" TO WS-FIRST-FLAG
           MOVE SR-PICKER-ID TO WS-PICKER-ID
           MOVE SR-PICKER-NAME TO WS-PICKER-NAME
           MOVE SR-HOURLY-RATE TO WS-HOURLY-RATE
           EVALUATE TRUE
               WHEN SR-SUNDAY
                   ADD SR-HOURS TO WS-SUNDAY-HOURS
               WHEN SR-NIGHT-SHIFT
                   ADD SR-HOURS TO WS-NIGHT-HOURS
               WHEN OTHER
                   ADD SR-HOURS TO WS-DAY-HOURS
           END-EVALUATE
           ADD SR-HOURS TO WS-TOTAL-HOURS
           ADD SR-PICKS TO WS-PICKS
           ADD SR-MISPICKS TO WS-MISPICKS.

       3000-PAY SECTION.
      *----------------------------------------------------------------*
      * Overtime: hours past 35 at 125%, past 43 at 150%. Night hours  *
      * earn a flat premium, Sunday hours 140% of the rate. The pick-  *
      * rate bonus pays each pick above 110 an hour, capped per week.  *
      *----------------------------------------------------------------*
       3000-CALC-WEEK-PAY.
           MOVE ZERO TO WS-OT-HOURS WS-HEAVY-HOURS
           MOVE ZERO TO WS-OVERTIME-PAY WS-PREMIUM-PAY WS-BONUS-PAY
           COMPUTE WS-BASE-PAY ROUNDED =
               (WS-DAY-HOURS + WS-NIGHT-HOURS) * WS-HOURLY-RATE
           END-COMPUTE

      *    Overtime is counted on all the week's hours, Sundays too.
           IF WS-TOTAL-HOURS > WS-HEAVY-OT-AFTER
               COMPUTE WS-HEAVY-HOURS =
                   WS-TOTAL-HOURS - WS-HEAVY-OT-AFTER
               COMPUTE WS-OT-HOURS =
                   WS-HEAVY-OT-AFTER - WS-OVERTIME-AFTER
           ELSE
               IF WS-TOTAL-HOURS > WS-OVERTIME-AFTER
                   COMPUTE WS-OT-HOURS =
                       WS-TOTAL-HOURS - WS-OVERTIME-AFTER
               END-IF
           END-IF
           COMPUTE WS-OVERTIME-PAY ROUNDED =
               WS-OT-HOURS * WS-HOURLY-RATE
                   * (WS-OVERTIME-FACTOR - 1)
               + WS-HEAVY-HOURS * WS-HOURLY-RATE
                   * (WS-HEAVY-OT-FACTOR - 1)
           END-COMPUTE

      *    Night and Sunday premiums.
           COMPUTE WS-PREMIUM-PAY ROUNDED =
               WS-NIGHT-HOURS * WS-NIGHT-PREMIUM
               + WS-SUNDAY-HOURS * WS-HOURLY-RATE * WS-SUNDAY-FACTOR
           END-COMPUTE

      *    Pick-rate bonus, on the hours actually picked.
           IF WS-TOTAL-HOURS > ZERO
               COMPUTE WS-PICK-RATE ROUNDED =
                   WS-PICKS / WS-TOTAL-HOURS
               END-COMPUTE
               IF WS-PICK-RATE > WS-TARGET-PICKS-HOUR
                   COMPUTE WS-EXTRA-PICKS =
                       WS-PICKS
                       - WS-TARGET-PICKS-HOUR * WS-TOTAL-HOURS
                   END-COMPUTE
                   COMPUTE WS-BONUS-PAY ROUNDED =
                       WS-EXTRA-PICKS * WS-BONUS-PER-PICK
                   END-COMPUTE
                   IF WS-BONUS-PAY > WS-BONUS-CAP
                       MOVE WS-BONUS-CAP TO WS-BONUS-PAY
                   END-IF
      *            Each mispick the packers sent back costs 20 picks.
                   IF WS-MISPICKS > ZERO
                       COMPUTE WS-BONUS-PAY ROUNDED =
                           WS-BONUS-PAY
                           - WS-MISPICKS * 20 * WS-BONUS-PER-PICK
                           ON SIZE ERROR
                               MOVE ZERO TO WS-BONUS-PAY
                       END-COMPUTE
                   END-IF
               END-IF
           END-IF

           COMPUTE WS-GROSS-PAY =
               WS-BASE-PAY + WS-OVERTIME-PAY
               + WS-PREMIUM-PAY + WS-BONUS-PAY
           END-COMPUTE
           ADD 1 TO WS-PICKERS-PAID.

       4000-REPORT SECTION.
       4000-PRINT-PICKER.
           MOVE WS-PICKER-ID TO DL-PICKER-ID
           MOVE WS-PICKER-NAME TO DL-PICKER-NAME
           MOVE WS-TOTAL-HOURS TO DL-HOURS
           MOVE WS-OVERTIME-PAY TO DL-OVERTIME
           MOVE WS-BONUS-PAY TO DL-BONUS
           MOVE WS-GROSS-PAY TO DL-GROSS
           WRITE REPORT-LINE FROM WS-DETAIL
               AFTER ADVANCING 1 LINE.

       END PROGRAM PICKPAY.
