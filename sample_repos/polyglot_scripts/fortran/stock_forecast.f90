!> Nightly stock forecast for the warehouse: reads the day's sales per SKU, smooths the
!! demand, and proposes reorder quantities that respect each supplier's pack size.
!!
!! Built with `gfortran -O2 -std=f2008`; the ops cron job runs it after the till export.
module stock_forecast
  use, intrinsic :: iso_fortran_env, only: real64, int32, output_unit
  implicit none
  private

  public :: sku_t, demand_model_t, plan_reorders, format_euros, operator(+)

  integer, parameter :: dp = real64
  integer, parameter :: max_days = 28
  real(dp), parameter :: default_alpha = 0.3_dp

  !> One stock-keeping unit as the warehouse sees it.
  type, public :: sku_t
    character(len=16) :: code = ""
    character(len=40) :: title = ""
    integer(int32) :: on_hand = 0
    integer(int32) :: pack_size = 1
    integer(int32) :: lead_days = 3
    real(dp) :: unit_cost = 0.0_dp
  end type sku_t

  !> Exponential smoothing of daily demand, one model per SKU.
  type :: demand_model_t
    real(dp) :: alpha = default_alpha
    real(dp) :: level = 0.0_dp
    integer :: observed = 0
  contains
    procedure :: observe => model_observe
    procedure :: forecast => model_forecast
    procedure :: reset => model_reset
  end type demand_model_t

  !> Two stock counts of one SKU, added (a recount after a transfer between aisles).
  interface operator(+)
    module procedure add_counts
  end interface

  !> A rule that adjusts a proposed quantity (promotions, seasonal uplift).
  abstract interface
    pure function adjust_rule(sku, quantity) result(adjusted)
      import :: sku_t
      type(sku_t), intent(in) :: sku
      integer, intent(in) :: quantity
      integer :: adjusted
    end function adjust_rule
  end interface

contains

  !> Feeds one day's sales into the model.
  subroutine model_observe(self, sold)
    class(demand_model_t), intent(inout) :: self
    integer, intent(in) :: sold

    if (self%observed == 0) then
      self%level = real(sold, dp)
    else
      self%level = self%alpha * real(sold, dp) + (1.0_dp - self%alpha) * self%level
    end if
    self%observed = self%observed + 1
  end subroutine model_observe

  !> Expected units sold over the next `days` days.
  pure function model_forecast(self, days) result(units)
    class(demand_model_t), intent(in) :: self
    integer, intent(in) :: days
    real(dp) :: units

    units = self%level * real(days, dp)
  end function model_forecast

  !> Forgets the history (a SKU relaunched under the same code).
  subroutine model_reset(self)
    class(demand_model_t), intent(inout) :: self

    self%level = 0.0_dp
    self%observed = 0
  end subroutine model_reset

  !> The stock of `a` with the units counted in `b` added.
  pure function add_counts(a, b) result(total)
    type(sku_t), intent(in) :: a, b
    type(sku_t) :: total

    total = a
    total%on_hand = a%on_hand + b%on_hand
  end function add_counts

  !> A price in cents as the ops report prints it: "12,50 €".
  function format_euros(cents) result(text)
    integer, intent(in) :: cents
    character(len=:), allocatable :: text
    character(len=32) :: buffer

    write (buffer, '(I0, ",", I2.2, " €")') cents / 100, mod(abs(cents), 100)
    text = trim(buffer)
  end function format_euros

  !> Proposes a reorder quantity for every SKU whose projected stock runs out before the
  !! supplier's next delivery, rounded up to whole packs, and prints the plan.
  !!
  !! `sales(d, i)` is the units of SKU `i` sold on day `d`; days without a till export are
  !! negative and skipped. Returns the number of SKUs to reorder.
  function plan_reorders(skus, sales, days, safety_days, unit) result(reorders)
    type(sku_t), intent(in) :: skus(:)
    integer, intent(in) :: sales(:, :)
    integer, intent(in) :: days
    integer, intent(in), optional :: safety_days
    integer, intent(in), optional :: unit
    integer :: reorders
    type(demand_model_t) :: model
    integer :: i, d, out, cover, shortfall, packs, quantity
    real(dp) :: expected, budget_cents
    character(len=:), allocatable :: cost_text

    cover = 2
    if (present(safety_days)) cover = safety_days
    out = output_unit
    if (present(unit)) out = unit
    reorders = 0
    budget_cents = 0.0_dp

    write (out, '(A)') "SKU              on hand  forecast  order  cost"
    do i = 1, size(skus)
      call model%reset()
      do d = max(1, days - max_days + 1), days
        if (sales(d, i) < 0) cycle
        call model%observe(sales(d, i))
      end do

      if (model%observed == 0) then
        write (out, '(A16, 2X, A)') skus(i)%code, "no sales data, skipped"
        cycle
      end if

      expected = model%forecast(skus(i)%lead_days + cover)
      shortfall = ceiling(expected) - skus(i)%on_hand
      if (shortfall <= 0) cycle

      packs = round_up_packs(shortfall, skus(i)%pack_size)
      quantity = packs * skus(i)%pack_size
      reorders = reorders + 1
      budget_cents = budget_cents + real(quantity, dp) * skus(i)%unit_cost * 100.0_dp
      cost_text = format_euros(nint(real(quantity, dp) * skus(i)%unit_cost * 100.0_dp))

      write (out, '(A16, I9, F10.1, I7, 2X, A)') skus(i)%code, skus(i)%on_hand, expected, &
        quantity, cost_text
    end do

    if (reorders == 0) then
      write (out, '(A)') "Nothing to reorder today."
    else
      write (out, '(I0, A, A)') reorders, " SKUs to reorder, total ", format_euros(nint(budget_cents))
    end if

  contains

    !> Whole packs that hold at least `units` units (a pack size below one counts as one).
    pure function round_up_packs(units, pack_size) result(packs)
      integer, intent(in) :: units, pack_size
      integer :: packs

      packs = (units + max(pack_size, 1) - 1) / max(pack_size, 1)
    end function round_up_packs

  end function plan_reorders

end module stock_forecast

!> Runs the forecast on a small fixed sample: the cron job links the real till reader instead.
program forecast_demo
  use stock_forecast
  implicit none
  type(sku_t) :: skus(2)
  integer :: sales(7, 2), count

  skus(1) = sku_t("KAF-500", "Kaffeebohnen 500 g", 12, 6, 2, 7.49d0)
  skus(2) = sku_t("TEE-GRN", "Grüner Tee, lose", 40, 10, 5, 3.20d0)
  sales(:, 1) = [5, 7, 6, -1, 8, 9, 7]
  sales(:, 2) = [2, 1, 3, 2, 2, 1, 2]

  count = plan_reorders(skus, sales, 7, safety_days=3)
  if (count > 0) call notify_buyer(count)

contains

  !> Tells the buyer's inbox how many SKUs wait for an order.
  subroutine notify_buyer(n)
    integer, intent(in) :: n

    print '(A, I0, A)', "Bestellvorschlag: ", n, " Artikel"
  end subroutine notify_buyer

end program forecast_demo
