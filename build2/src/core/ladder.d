build2/src/core/ladder.o: src/core/ladder.c src/core/ladder.h \
 src/core/lesson.h src/base/textbuf.h src/base/util.h
src/core/ladder.h:
src/core/lesson.h:
src/base/textbuf.h:
src/base/util.h:
