/* Loops kept in a header: loomc does not translate them. */
#if 0
#pragma loom par_loop(old) over(cells) args(read: v)
#endif
  #pragma loom par_loop(total) over(cells) args(read: v, inc: sum)
