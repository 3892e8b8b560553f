build2/src/core/shapes.o: src/core/shapes.c src/core/shapes.h \
 src/base/util.h
src/core/shapes.h:
src/base/util.h:
