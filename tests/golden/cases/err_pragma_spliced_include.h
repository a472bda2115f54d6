/* A loop kept in a header, spelled across a line splice. */
  #pra\
gma loom par_loop(total) over(cells) args(read: v, inc: sum)
