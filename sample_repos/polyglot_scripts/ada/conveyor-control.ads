--  Outbound conveyor of the Lyon warehouse, as the controller PC drives it:
--  parcels packed at the pick stations ride the belt through the scanner
--  tunnel, are queued with the chute their carrier loads from, and the
--  sorter task swings that chute's diverter paddle when the parcel passes.
--
--  The PLC is reached through Conveyor.IO (photo-eyes, paddles, belt drive,
--  the tunnel's reader); the station PCs only call Run_Shift and Report.

with Ada.Calendar;
with Conveyor.IO;

package Conveyor.Control is

   --  Aisles and chutes as the floor plan numbers them.
   type Aisle_Id is range 1 .. 24;
   type Chute_Id is range 1 .. 12;

   --  The tunnel's scale weighs to the gram; 70 kg is the belt's limit.
   subtype Weight_Grams is Natural range 0 .. 70_000;

   --  Carriers loading at the dock, each from a chute of its own.
   type Carrier is (Colissimo, Chronopost, DHL_Express, UPS, Pallet_Freight);

   type Carrier_Counts is array (Carrier) of Natural;

   --  A parcel as the tunnel reads it off its label and its scale. One the
   --  sorter must not send to its carrier's chute is Rejected: it goes to
   --  the overflow chute for a person to look at.
   type Parcel is record
      Tracking   : String (1 .. 14) := (others => ' ');
      Shipped_By : Carrier := Colissimo;
      Weight     : Weight_Grams := 0;
      From_Aisle : Aisle_Id := 1;
      Fragile    : Boolean := False;
      Rejected   : Boolean := False;
   end record;

   type Parcel_Array is array (Positive range <>) of Parcel;

   type Belt_State is (Stopped, Running, Jammed, Draining);

   --  A chute's fill, counted by the photo-eye at its mouth. The dock team
   --  swaps the roll cage under a chute when it is full.
   type Chute is tagged record
      Id       : Chute_Id := 1;
      Parcels  : Natural := 0;
      Capacity : Positive := 40;
   end record;

   --  Whether the roll cage under C must be swapped before more parcels
   --  are diverted to it.
   function Is_Full (C : Chute) return Boolean;

   --  The dock team swapped the roll cage under C.
   procedure Empty (C : in out Chute);

   --  The overflow chute at the end of the line: whatever cannot be sorted
   --  ends there, and the shift lead is paged when it fills up.
   type Overflow_Chute is new Chute with record
      Lead_Paged : Boolean := False;
   end record;

   overriding procedure Empty (C : in out Overflow_Chute);

   --  Raised when a parcel does not reach its chute's photo-eye in time, or
   --  the queue stays full past the jam timeout.
   Jam_Error : exception;

   --  Parcels scanned but not yet diverted: the shift loop puts them in, the
   --  sorter takes them out, in belt order.
   protected type Parcel_Queue (Size : Positive) is
      entry Put (P : Parcel);
      entry Take (P : out Parcel);
      procedure Clear;
      function Count return Natural;
   private
      Items  : Parcel_Array (1 .. Size);
      First  : Positive := 1;
      Length : Natural := 0;
   end Parcel_Queue;

   --  The sorter: takes parcels off the queue in belt order and fires the
   --  diverter paddle of their chute as they pass its photo-eye.
   task type Sorter is
      entry Start (Belt_Speed_Mm_S : Positive);
      entry Pause;
      entry Stop;
   end Sorter;

   --  The beacon over the dock door: amber while a chute is full or the
   --  belt drains, red on a jam.
   protected Beacon is
      procedure Set (State : Belt_State; Full_Chutes : Natural);
      function Colour return String;
   private
      Current : Belt_State := Stopped;
      Full    : Natural := 0;
   end Beacon;

   --  Moving average over the last Window readings of a sensor (the tunnel's
   --  scale, the belt's speed encoder), to ride out the belt's vibration.
   generic
      type Reading is private;
      Window : Positive := 8;
      with function "+" (A, B : Reading) return Reading is <>;
      with function Scale (R : Reading; By : Positive) return Reading;
   package Smoothing is
      procedure Push (R : Reading);
      function Current return Reading;
   end Smoothing;

   --  Totals of one shift, for the dock lead's report.
   type Shift_Totals is record
      Scanned        : Natural := 0;
      Diverted       : Natural := 0;
      To_Overflow    : Natural := 0;
      Jams           : Natural := 0;
      Average_Weight : Weight_Grams := 0;
      Per_Carrier    : Carrier_Counts := (others => 0);
   end record;

   --  Runs the belt for one shift: starts the sorter, queues what the tunnel
   --  scans until Parcels_Expected have gone by or the shift ends, holds the
   --  belt while a cage is full, and drains the belt at the end.
   procedure Run_Shift
     (Shift_End        : Ada.Calendar.Time;
      Parcels_Expected : Natural;
      Totals           : out Shift_Totals);

   --  One line per carrier on the dock lead's screen.
   procedure Report (Totals : Shift_Totals);

private

   Belt : Belt_State := Stopped;

   Overflow_Id : constant Chute_Id := Chute_Id'Last;

   --  The chute each carrier's trailer is backed up to.
   function Chute_Of (C : Carrier) return Chute_Id is
     (case C is
         when Colissimo      => 1,
         when Chronopost     => 3,
         when DHL_Express    => 5,
         when UPS            => 7,
         when Pallet_Freight => 9);

end Conveyor.Control;
