# Stock reservations for the warehouse service: a cart holds units while its customer checks
# out, checkout turns the hold into a pick, and a hold that runs out gives its units back.

defmodule Shop.Inventory.Reservations do
  @moduledoc """
  Holds on stock while a customer checks out.

  A hold keeps `quantity` units of one SKU for one cart until `expires_at`. The table of
  holds lives in the caller's process (a GenServer's state): every function here takes the
  state and returns a new one, so the rules are tested without a process.
  """

  require Logger

  alias Shop.Inventory.Reservations.Hold

  @default_ttl_seconds 15 * 60
  @max_units_per_line 20

  defmodule Hold do
    @moduledoc "One cart's hold on one SKU."

    @enforce_keys [:cart_id, :sku, :quantity, :expires_at]
    defstruct [:cart_id, :sku, :quantity, :expires_at, note: nil]

    @type t :: %__MODULE__{
            cart_id: String.t(),
            sku: String.t(),
            quantity: pos_integer(),
            expires_at: DateTime.t(),
            note: String.t() | nil
          }

    @doc "Whether the hold has run out at `now`."
    @spec expired?(t(), DateTime.t()) :: boolean()
    def expired?(%__MODULE__{expires_at: expires_at}, now) do
      DateTime.compare(expires_at, now) != :gt
    end

    @doc "The hold with its expiry pushed `seconds` past `now`."
    def extend(%__MODULE__{} = hold, now, seconds) do
      %{hold | expires_at: DateTime.add(now, seconds, :second)}
    end
  end

  @type state :: %{stock: %{String.t() => non_neg_integer()}, holds: [Hold.t()]}

  @doc "An empty table over the given stock levels (SKU => units on the shelf)."
  @spec new(map()) :: state()
  def new(stock) when is_map(stock), do: %{stock: stock, holds: []}

  @doc "Units of `sku` on the shelf that no cart holds."
  @spec available(state(), String.t()) :: integer()
  def available(%{stock: stock, holds: holds}, sku) do
    held = holds |> Enum.filter(&(&1.sku == sku)) |> Enum.map(& &1.quantity) |> Enum.sum()
    Map.get(stock, sku, 0) - held
  end

  @doc """
  Holds every line of a cart, or none of them.

  `lines` is a list of `{sku, quantity}`. A cart that already holds a SKU has that hold
  replaced (the customer changed the quantity), and its expiry starts again. Options:

    * `:now` - the current time (defaults to `DateTime.utc_now/0`)
    * `:ttl` - seconds a hold lasts (defaults to 15 minutes)
    * `:partial` - hold what is available when a line is short, instead of failing

  Returns `{:ok, state, holds}` or `{:error, reasons}` with one reason per bad line.
  """
  @spec reserve_cart(state(), String.t(), [{String.t(), integer()}], keyword()) ::
          {:ok, state(), [Hold.t()]} | {:error, [String.t()]}
  def reserve_cart(state, cart_id, lines, opts \\ []) do
    now = Keyword.get(opts, :now, DateTime.utc_now())
    ttl = Keyword.get(opts, :ttl, @default_ttl_seconds)
    partial? = Keyword.get(opts, :partial, false)
    expires_at = DateTime.add(now, ttl, :second)

    # The cart's own holds count as available to it: it is replacing them.
    {own, others} = Enum.split_with(state.holds, &(&1.cart_id == cart_id))
    base = %{state | holds: others}

    merged =
      lines
      |> Enum.group_by(fn {sku, _qty} -> String.upcase(String.trim(sku)) end, fn {_sku, qty} -> qty end)
      |> Enum.map(fn {sku, quantities} -> {sku, Enum.sum(quantities)} end)
      |> Enum.sort()

    result =
      Enum.reduce_while(merged, {[], []}, fn {sku, quantity}, {holds, errors} ->
        case validate_line(sku, quantity) do
          {:error, reason} ->
            {:cont, {holds, [reason | errors]}}

          :ok ->
            free = available(base, sku)

            cond do
              free >= quantity ->
                hold = %Hold{cart_id: cart_id, sku: sku, quantity: quantity, expires_at: expires_at}
                {:cont, {[hold | holds], errors}}

              partial? and free > 0 ->
                note = "nur #{free} von #{quantity} Stück verfügbar"
                hold = %Hold{cart_id: cart_id, sku: sku, quantity: free, expires_at: expires_at, note: note}
                {:cont, {[hold | holds], errors}}

              free <= 0 and not partial? ->
                {:cont, {holds, [format_shortage(sku, quantity, 0) | errors]}}

              true ->
                {:cont, {holds, [format_shortage(sku, quantity, max(free, 0)) | errors]}}
            end
        end
      end)

    case result do
      {holds, []} ->
        holds = Enum.reverse(holds)
        released = length(own) - Enum.count(own, fn old -> Enum.any?(holds, &(&1.sku == old.sku)) end)

        if released > 0 do
          Logger.debug("cart #{cart_id}: #{released} hold(s) dropped on re-reserve")
        end

        Logger.info("cart #{cart_id}: #{length(holds)} line(s) held until #{DateTime.to_iso8601(expires_at)}")
        {:ok, %{base | holds: base.holds ++ holds}, holds}

      {_holds, errors} ->
        Logger.warning("cart #{cart_id}: reservation refused (#{length(errors)} line(s))")
        {:error, Enum.reverse(errors)}
    end
  end

  @doc "Drops every hold that ran out; returns the new state and how many went."
  @spec release_expired(state(), DateTime.t()) :: {state(), non_neg_integer()}
  def release_expired(state, now) do
    {gone, kept} = Enum.split_with(state.holds, &Hold.expired?(&1, now))
    {%{state | holds: kept}, length(gone)}
  end

  @doc """
  Turns a cart's holds into a pick: the units leave the shelf and the holds go.
  Returns the new state and the pick list, one `{sku, quantity}` per line.
  """
  @spec commit(state(), String.t()) :: {state(), [{String.t(), pos_integer()}]}
  def commit(state, cart_id) do
    {mine, others} = Enum.split_with(state.holds, &(&1.cart_id == cart_id))

    stock =
      Enum.reduce(mine, state.stock, fn hold, acc ->
        Map.update!(acc, hold.sku, &(&1 - hold.quantity))
      end)

    {%{state | stock: stock, holds: others}, Enum.map(mine, &{&1.sku, &1.quantity})}
  end

  defp validate_line(sku, quantity) do
    cond do
      sku == "" -> {:error, "empty SKU"}
      not is_integer(quantity) or quantity <= 0 -> {:error, "#{sku}: quantity must be positive"}
      quantity > @max_units_per_line -> {:error, "#{sku}: at most #{@max_units_per_line} per order"}
      true -> :ok
    end
  end

  # Shown to the customer as is: the shop's language is German.
  defp format_shortage(sku, wanted, free) do
    "#{sku}: #{wanted} gewünscht — nur #{free} auf Lager"
  end
end

defprotocol Shop.Inventory.PickLabel do
  @moduledoc "A one-line label for the warehouse's pick list."

  @doc "The label printed next to the bin."
  def label(item)
end

defimpl Shop.Inventory.PickLabel, for: Shop.Inventory.Reservations.Hold do
  def label(hold), do: "#{hold.sku} × #{hold.quantity} (cart #{hold.cart_id})"
end
