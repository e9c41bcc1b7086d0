#[=======================================================================[.rst:
StockTools
----------

Helpers shared by the pick station's targets and the office tools:

``stock_strict_warnings(<target>)``
  the warnings stock and price code is held to.
``stock_add_tool(<name> SOURCES <src>... [LIBS <lib>...] [INSTALL])``
  a command-line tool of the warehouse office.
``stock_embed_price_table(<target> <csv>)``
  the buyers' price export compiled in as a table of cents.
``stock_low_mark(<bin-class> <var>)``
  the stock level under which a bin of that class is restocked.
#]=======================================================================]
include_guard(GLOBAL)

# A lost unit of stock or cent of price usually starts as a narrowing
# conversion: those are errors here, not warnings.
function(stock_strict_warnings target)
  if(MSVC)
    target_compile_options(${target} PRIVATE /W4 /WX /permissive-)
  else()
    target_compile_options(${target} PRIVATE
      -Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Werror)
  endif()
endfunction()

#[[
  stock_add_tool(<name> SOURCES <src>... [LIBS <lib>...] [INSTALL])

  A tool of the warehouse office (the restock report, the price check): built
  as pickstation-<name> in tools/, warned as strictly as the station, and
  installed with the office-tools component when INSTALL is given.
#]]
function(stock_add_tool name)
  cmake_parse_arguments(PARSE_ARGV 1 TOOL "INSTALL" "" "SOURCES;LIBS")
  if(NOT TOOL_SOURCES)
    message(FATAL_ERROR "stock_add_tool(${name}): no SOURCES given")
  endif()
  if(TOOL_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "stock_add_tool(${name}): unknown arguments ${TOOL_UNPARSED_ARGUMENTS}")
  endif()
  add_executable(${name} ${TOOL_SOURCES})
  target_link_libraries(${name} PRIVATE ${TOOL_LIBS})
  stock_strict_warnings(${name})
  set_target_properties(${name} PROPERTIES
    OUTPUT_NAME "pickstation-${name}"
    RUNTIME_OUTPUT_DIRECTORY "${PROJECT_BINARY_DIR}/tools")
  if(TOOL_INSTALL)
    install(TARGETS ${name} RUNTIME DESTINATION bin COMPONENT office-tools)
  endif()
endfunction()

# stock_embed_price_table(<target> <csv>)
#
# Reads the buyers' export (sku,label,euros,pack per line, a header first) and
# writes generated/price_table.hpp for <target>: one {sku, cents, pack} entry
# per product. A new export re-runs the configure step.
function(stock_embed_price_table target csv)
  # Euros as the export writes them ("12.90", "3.5", "7") to whole cents, with
  # no floating point: math() knows integers only.
  function(_stock_cents euros out_var)
    if(euros MATCHES "^([0-9]+)\\.([0-9])$")
      math(EXPR cents "${CMAKE_MATCH_1} * 100 + ${CMAKE_MATCH_2} * 10")
    elseif(euros MATCHES "^([0-9]+)\\.([0-9])([0-9])$")
      math(EXPR cents "${CMAKE_MATCH_1} * 100 + ${CMAKE_MATCH_2} * 10 + ${CMAKE_MATCH_3}")
    elseif(euros MATCHES "^([0-9]+)$")
      math(EXPR cents "${CMAKE_MATCH_1} * 100")
    else()
      message(FATAL_ERROR "price table: '${euros}' is not an amount in euros")
    endif()
    set(${out_var} ${cents} PARENT_SCOPE)
  endfunction()

  if(NOT EXISTS "${csv}")
    message(FATAL_ERROR "price table: no export at ${csv}")
  endif()
  file(STRINGS "${csv}" rows ENCODING UTF-8)
  list(POP_FRONT rows)  # the header row
  set(entries "")
  set(count 0)
  foreach(row IN LISTS rows)
    if(row STREQUAL "" OR row MATCHES "^#")
      continue()
    endif()
    string(REPLACE "," ";" fields "${row}")
    list(LENGTH fields width)
    if(NOT width EQUAL 4)
      message(WARNING "price table: skipped '${row}' (${width} fields, 4 expected)")
      continue()
    endif()
    list(GET fields 0 sku)
    list(GET fields 2 euros)
    list(GET fields 3 pack)
    _stock_cents("${euros}" cents)
    string(APPEND entries "    {\"${sku}\", ${cents}, ${pack}},\n")
    math(EXPR count "${count} + 1")
  endforeach()

  set(out_dir "${CMAKE_CURRENT_BINARY_DIR}/generated")
  configure_file("${CMAKE_CURRENT_FUNCTION_LIST_DIR}/price_table.hpp.in"
                 "${out_dir}/price_table.hpp" @ONLY)
  target_include_directories(${target} PUBLIC "${out_dir}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${csv}")
  message(STATUS "price table: ${count} prices from ${csv}")
endfunction()

# Sets <var> to the restock mark of a bin class (BULKY, COLD, ...): its own
# PICKSTATION_LOW_STOCK_<class> when set, else the warehouse-wide one. A macro,
# so that <var> lands in the caller's scope with no PARENT_SCOPE dance.
macro(stock_low_mark bin_class var)
  if(DEFINED PICKSTATION_LOW_STOCK_${bin_class})
    set(${var} ${PICKSTATION_LOW_STOCK_${bin_class}})
  else()
    set(${var} ${PICKSTATION_LOW_STOCK})
  endif()
endmacro()
