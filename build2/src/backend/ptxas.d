build2/src/backend/ptxas.o: src/backend/ptxas.c src/backend/ptxas.h \
 src/base/util.h
src/backend/ptxas.h:
src/base/util.h:
