/* A macro of the header spells a loom directive with _Pragma; the word
 * loom is also in this comment, before any pragma. */
#define LOOP_TOTAL _Pragma(  "loom par_loop(total) over(cells) args(read: v, inc: sum)")
