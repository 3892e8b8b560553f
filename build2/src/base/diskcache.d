build2/src/base/diskcache.o: src/base/diskcache.c src/base/diskcache.h \
 src/base/util.h
src/base/diskcache.h:
src/base/util.h:
