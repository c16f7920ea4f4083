#ifndef CYAML_SHIM_H
#define CYAML_SHIM_H
// libyaml's event API (yaml_parser_parse and the yaml_event_t union) imports into Swift as is:
// no variadic functions or function-like macros are used, so no wrappers are needed here.
#include <yaml.h>

#endif
