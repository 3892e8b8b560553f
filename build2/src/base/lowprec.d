build2/src/base/lowprec.o: src/base/lowprec.c src/base/lowprec.h
src/base/lowprec.h:
