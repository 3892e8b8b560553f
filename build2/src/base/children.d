build2/src/base/children.o: src/base/children.c src/base/children.h
src/base/children.h:
