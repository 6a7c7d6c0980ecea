// Private helpers shared by the Roblox XML readers of asterune::io (.rbxmx models in
// rbxmx.cpp, KeyframeSequences in keyframe_sequence.cpp): property lookup and typed reads that
// throw detail::LoadError naming the item and the property.
#pragma once

#include <string>
#include <string_view>

#include <pugixml.hpp>

#include "asterune/math/transform.hpp"
#include "json_read.hpp"

namespace asterune::io::detail {

/// The <Properties> child of `item` named `name` (any element type), or an empty node.
pugi::xml_node property(const pugi::xml_node& item, std::string_view name);

/// "Class 'Name' (referent RBX12)": how errors name an <Item>.
std::string item_label(const pugi::xml_node& item);

/// The element's text as a float; throws LoadError{where, "not a number: '...'"}.
float parse_number(const pugi::xml_node& n, const std::string& where);

/// The CoordinateFrame property `name` of `item` (X..R22); throws LoadError naming `label`,
/// the property and the component on a missing/unparsable component or a non-rotation.
Transform read_cframe(const pugi::xml_node& item, std::string_view name, const std::string& label);

/// The integer enum token property `name` of `item` (an EasingStyle, a Priority, a
/// RotationOrder), or `fallback` when the item has none; throws LoadError naming `label` and the
/// property when the text is not a whole number within +-1e6.
int read_token(const pugi::xml_node& item, std::string_view name, const std::string& label, int fallback);

/// Loads XML text; a syntax error throws LoadError{"line N", "invalid XML: ..."}.
void load_xml(pugi::xml_document& doc, std::string_view text);

}  // namespace asterune::io::detail
