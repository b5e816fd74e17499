/* The list of modules (like Lua's linit.c): adding a module is one line
 * here and one folder under src/modules/. */
#include "modules/modules.h"

#include "modules/core/module.h"
#include "modules/games/module.h"
#include "modules/explicit/module.h"
#include "modules/misere/module.h"
#include "modules/kb/module.h"
#include "modules/gp/module.h"
#include "modules/ga/module.h"
#include "modules/mnk/module.h"
#include "modules/io/module.h"

const Module *const cgt_modules[] = {
    &cgt_module_core,
    &cgt_module_games,
    &cgt_module_explicit,
    &cgt_module_misere,
    &cgt_module_kb,
    &cgt_module_gp,
    &cgt_module_ga,
    &cgt_module_mnk,
    &cgt_module_io,
    NULL,
};
