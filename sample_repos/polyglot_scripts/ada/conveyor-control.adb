--  Conveyor control of the Lyon warehouse's outbound line: the queue of
--  scanned parcels, the sorter task that diverts them, and the shift loop
--  the dock lead starts from the station PC.

with Ada.Text_IO;
with Ada.Calendar; use Ada.Calendar;

package body Conveyor.Control is

   package Count_IO is new Ada.Text_IO.Integer_IO (Natural);

   --  How long a parcel may take from the tunnel to its chute's photo-eye.
   Jam_Timeout : constant Duration := 4.0;

   --  Chutes as they stand on the floor, the overflow chute last.
   Chutes : array (Chute_Id) of Chute;
   Spill  : Overflow_Chute;

   Queue       : Parcel_Queue (Size => 64);
   Line_Sorter : Sorter;

   function Is_Full (C : Chute) return Boolean is
   begin
      return C.Parcels >= C.Capacity;
   end Is_Full;

   procedure Empty (C : in out Chute) is
   begin
      C.Parcels := 0;
   end Empty;

   --  Swapping the overflow cage also clears the page to the shift lead.
   overriding procedure Empty (C : in out Overflow_Chute) is
   begin
      Empty (Chute (C));
      C.Lead_Paged := False;
   end Empty;

   protected body Parcel_Queue is

      --  A full queue blocks the shift loop, which then times out as a jam.
      entry Put (P : Parcel) when Length < Size is
      begin
         Items ((First + Length - 1) mod Size + 1) := P;
         Length := Length + 1;
      end Put;

      entry Take (P : out Parcel) when Length > 0 is
      begin
         P := Items (First);
         First := First mod Size + 1;
         Length := Length - 1;
      end Take;

      procedure Clear is
      begin
         First := 1;
         Length := 0;
      end Clear;

      function Count return Natural is (Length);

   end Parcel_Queue;

   protected body Beacon is

      procedure Set (State : Belt_State; Full_Chutes : Natural) is
      begin
         Current := State;
         Full := Full_Chutes;
         Conveyor.IO.Set_Beacon (Colour);
      end Set;

      function Colour return String is
      begin
         if Current = Jammed then
            return "red";
         elsif Full > 0 or else Current = Draining then
            return "amber";
         else
            return "green";
         end if;
      end Colour;

   end Beacon;

   --  Swings the paddle of P's chute when P reaches that chute's photo-eye;
   --  a parcel that does not show up there in time is a jam.
   procedure Divert (P : Parcel) is
      Target   : constant Chute_Id :=
        (if P.Rejected then Overflow_Id else Chute_Of (P.Shipped_By));
      Deadline : constant Time := Clock + Jam_Timeout;
   begin
      while not Conveyor.IO.Eye_Blocked (Natural (Target)) loop
         if Clock > Deadline then
            raise Jam_Error with "parcel " & P.Tracking & " lost before chute" & Chute_Id'Image (Target);
         end if;
         delay 0.005;
      end loop;
      Conveyor.IO.Swing_Paddle (Natural (Target));
      if Target = Overflow_Id then
         Spill.Parcels := Spill.Parcels + 1;
      else
         Chutes (Target).Parcels := Chutes (Target).Parcels + 1;
      end if;
   end Divert;

   task body Sorter is
      Speed   : Positive := 1;
      Current : Parcel;
   begin
      accept Start (Belt_Speed_Mm_S : Positive) do
         Speed := Belt_Speed_Mm_S;
      end Start;
      Conveyor.IO.Drive_Belt (Speed);
      loop
         select
            accept Pause;
            Conveyor.IO.Drive_Belt (0);
            accept Start (Belt_Speed_Mm_S : Positive) do
               Speed := Belt_Speed_Mm_S;
            end Start;
            Conveyor.IO.Drive_Belt (Speed);
         or
            accept Stop;
            exit;
         or
            delay 0.05;
         end select;
         if Queue.Count > 0 then
            Queue.Take (Current);
            Divert (Current);
         end if;
      end loop;
      Conveyor.IO.Drive_Belt (0);
   exception
      when Jam_Error =>
         Belt := Jammed;
         Conveyor.IO.Drive_Belt (0);
   end Sorter;

   package body Smoothing is

      Ring   : array (1 .. Window) of Reading;
      Next   : Positive := 1;
      Filled : Natural := 0;

      procedure Push (R : Reading) is
      begin
         Ring (Next) := R;
         Next := Next mod Window + 1;
         Filled := Natural'Min (Filled + 1, Window);
      end Push;

      function Current return Reading is
         Sum : Reading := Ring (1);
      begin
         for I in 2 .. Filled loop
            Sum := Sum + Ring (I);
         end loop;
         return Scale (Sum, Positive'Max (Filled, 1));
      end Current;

   end Smoothing;

   function Divide (W : Weight_Grams; By : Positive) return Weight_Grams is (W / By);

   package Weight_Average is new Smoothing (Weight_Grams, Window => 16, Scale => Divide);

   --  The shift loop, in a file of its own (conveyor-control-run_shift.adb).
   procedure Run_Shift
     (Shift_End        : Time;
      Parcels_Expected : Natural;
      Totals           : out Shift_Totals) is separate;

   procedure Report (Totals : Shift_Totals) is
      use Ada.Text_IO;
   begin
      Put ("Scanned  ");
      Count_IO.Put (Totals.Scanned, Width => 6);
      New_Line;
      for C in Carrier loop
         Put (Carrier'Image (C) & ": ");
         Count_IO.Put (Totals.Per_Carrier (C), Width => 5);
         New_Line;
      end loop;
      Put_Line ("Overflow:" & Natural'Image (Totals.To_Overflow)
                & "  Jams:" & Natural'Image (Totals.Jams)
                & "  Average g:" & Natural'Image (Totals.Average_Weight));
   end Report;

begin
   for C in Chutes'Range loop
      Chutes (C).Id := C;
   end loop;
   --  The overflow chute takes a cage twice a carrier chute's size.
   Spill.Id := Overflow_Id;
   Spill.Capacity := 80;
end Conveyor.Control;
