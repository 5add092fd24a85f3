#pragma once
// A value at a dotted preset path in a document's own unit system (units.system, engine/scene/unit_system.hpp):
// what a user types, or is answered, where the document's file would hold it. The entry points that take a bare
// number for a preset path read it so, as the file and a sweep do (issue 42): --set, Python set/get, the remote's
// set/get. In an SI document both functions return the value unchanged.

#include "engine/core/parameters.hpp"
#include "engine/scene/schema.hpp"
#include "engine/scene/units.hpp"

#include <string>

namespace lodestone {

// The value in SI: a bare number (or each number of a list) in the document's units times its quantity's unit;
// a value with its own unit ("40mT"), text, and a path the preset table does not know stay as they are.
json value_in_si(const DisplayUnits& units, const std::string& dotted_path, json value);
// An SI value as the document's file holds it: the number that reads back as exactly the same double, else the SI
// value with its SI unit (as a saved preset writes it).
json value_in_document_units(const DisplayUnits& units, const std::string& dotted_path, json value);

// How the panels show a quantity: in an SI document, in its display unit (mT, mm, atm as the preset chooses, else
// SI: display_unit); in a document in reduced units, as its file holds it, labelled "lj" (dimensionless values and
// angles as in SI, the same in both systems).
std::string shown_unit(Quantity q, const DisplayUnits& units);
double si_to_shown(double si, Quantity q, const DisplayUnits& units);
double shown_to_si(double shown, Quantity q, const DisplayUnits& units);

// The SI value at a dotted path as a message shows it ("20 mT", four significant digits): in `typed_unit` when it
// is a unit of the path's quantity (the one the user typed the change in: "0.2 kOe"), else as the panels show it.
json value_as_shown(const std::string& dotted_path, const json& value, const DisplayUnits& units,
                    const std::string& typed_unit = "");
// The unit a typed value carries ("0.2 kOe": "kOe"; "" for a number or a text without one).
std::string typed_unit_of(const json& value);

}  // namespace lodestone
