/* The mesh of ok_modular.c: a struct of handles with their facts, and a
 * handle defined in another file. */
#include <loom.h>

typedef struct mesh {
  loom_set cells, nodes;
  loom_map pcell LOOM_MAP_FACTS(cells, nodes, 2);
  loom_dat q LOOM_DAT_FACTS(cells, 2, double);
  loom_dat x LOOM_DAT_FACTS(nodes, 1, double);
} mesh;

extern loom_set all_nodes;
extern loom_dat weight LOOM_DAT_FACTS(all_nodes, 1, double);
