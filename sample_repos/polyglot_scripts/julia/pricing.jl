# Shelf pricing for the shop: list prices, promotions and the nightly price-change report.
#
# Prices are kept in cents (Int) so that a basket total never drifts by a rounding error;
# only the printed report turns them into euros.

"""
    Pricing

Promotions, list prices and the price-change report printed for the shelf staff each night.
"""
module Pricing

using Printf
using Dates

export Product, Promotion, PercentOff, BundleDeal, price_of, apply_promotions, price_report

"Money in euro cents."
const Cents = Int

"""
    AbstractPromotion

Anything that can lower the price of a basket line. Each subtype implements
[`discount`](@ref) and [`applies`](@ref).
"""
abstract type AbstractPromotion end

"""
    Product(sku, name, list_price; category = "misc")

One product on the shelf. `list_price` is in cents and must not be negative.
"""
struct Product
    sku::String
    name::String
    list_price::Cents
    category::String

    function Product(sku, name, list_price; category = "misc")
        list_price >= 0 || throw(ArgumentError("negative price for $sku"))
        new(sku, name, list_price, category)
    end
end

"A percentage off every product of a category, between two dates."
struct PercentOff <: AbstractPromotion
    category::String
    percent::Int
    starts::Date
    ends::Date
end

"Buy `buy` units of one product and pay for `pay` of them (3 for 2, and the like)."
struct BundleDeal <: AbstractPromotion
    sku::String
    buy::Int
    pay::Int
end

"""
    @cents expr

Round a price expression to whole cents, halves away from zero, as the tills do.
"""
macro cents(expr)
    return :(round(Int, $(esc(expr)), RoundNearestTiesAway))
end

applies(p::PercentOff, product::Product, day::Date) =
    product.category == p.category && p.starts <= day <= p.ends

applies(p::BundleDeal, product::Product, ::Date) = product.sku == p.sku

discount(p::PercentOff, product::Product, qty::Int) = @cents product.list_price * qty * p.percent / 100

function discount(p::BundleDeal, product::Product, qty::Int)
    free = div(qty, p.buy) * (p.buy - p.pay)
    return free * product.list_price
end

"""
    price_of(product, qty, promotions; day = today())

What `qty` units of `product` cost on `day`: the best single promotion that applies
(promotions never stack), never below zero.
"""
function price_of(product::Product, qty::Int, promotions; day::Date = today())
    gross = product.list_price * qty
    best = 0
    for promo in promotions
        applies(promo, product, day) || continue
        best = max(best, discount(promo, product, qty))
    end
    return max(gross - best, 0)
end

"Euros as the shelf labels print them: `1234` is `12,34 €`."
format_euros(cents::Integer) = @sprintf("%d,%02d €", div(cents, 100), rem(abs(cents), 100))

"""
    apply_promotions(basket, catalog, promotions; day = today())

Price every line of a basket (`sku => qty`), returning the lines sorted by SKU and the total.
"""
function apply_promotions(basket::Dict{String,Int}, catalog::Dict{String,Product}, promotions; day::Date = today())
    lines = Tuple{String,Int,Cents}[]
    for (sku, qty) in sort(collect(basket))
        product = get(catalog, sku, nothing)
        product === nothing && continue
        push!(lines, (sku, qty, price_of(product, qty, promotions; day = day)))
    end
    return lines, sum(last, lines; init = 0)
end

"""
    price_report(io, catalog, promotions, yesterday, today)

Print the nightly price-change report: every product whose one-unit price differs
between the two days, grouped by category, with the promotions that start or end.
Returns the number of changed products, so the caller knows whether to print labels.
"""
function price_report(io::IO, catalog::Dict{String,Product}, promotions, yesterday::Date, day::Date)
    # One unit, as the shelf label shows it.
    unit_price(product, when) = price_of(product, 1, promotions; day = when)

    changes = Dict{String,Vector{Tuple{Product,Cents,Cents}}}()
    for product in values(catalog)
        before = unit_price(product, yesterday)
        after = unit_price(product, day)
        before == after && continue
        push!(get!(changes, product.category, []), (product, before, after))
    end

    println(io, "Price changes for ", Dates.format(day, "e d u yyyy"))
    println(io, "="^40)
    if isempty(changes)
        println(io, "No shelf label needs changing tonight.")
        return 0
    end

    changed = 0
    for category in sort(collect(keys(changes)))
        rows = sort(changes[category]; by = row -> row[1].name)
        println(io)
        println(io, uppercase(category), " (", length(rows), ")")
        for (product, before, after) in rows
            arrow = after < before ? "↓" : "↑"
            @printf(io, "  %-8s %-28s %10s %s %10s\n", product.sku, product.name,
                    format_euros(before), arrow, format_euros(after))
            changed += 1
        end
    end

    starting = [p for p in promotions if p isa PercentOff && p.starts == day]
    ending = [p for p in promotions if p isa PercentOff && p.ends == yesterday]
    if !isempty(starting) || !isempty(ending)
        println(io)
        println(io, "Promotions")
        for p in starting
            println(io, "  starts: ", p.percent, "% off ", p.category, " until ", p.ends)
        end
        for p in ending
            println(io, "  ended:  ", p.percent, "% off ", p.category)
        end
    end

    bundles = [p for p in promotions if p isa BundleDeal]
    if !isempty(bundles)
        println(io)
        println(io, "Bundle deals on the shelf (labels stay as they are):")
        for b in bundles
            name = haskey(catalog, b.sku) ? catalog[b.sku].name : b.sku
            println(io, "  ", b.buy, " for ", b.pay, ": ", name)
        end
    end

    drops = count(row -> row[3] < row[2], reduce(vcat, values(changes)))
    println(io)
    println(io, drops, " cheaper, ", changed - drops, " dearer than yesterday.")
    println(io, changed, changed == 1 ? " label" : " labels", " to print before opening.")
    return changed
end

end # module Pricing
