build2/src/core/frontier.o: src/core/frontier.c src/core/frontier.h \
 src/core/problem.h src/base/types.h src/base/rng.h src/base/textbuf.h
src/core/frontier.h:
src/core/problem.h:
src/base/types.h:
src/base/rng.h:
src/base/textbuf.h:
