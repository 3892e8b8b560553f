build2/src/core/resultfmt.o: src/core/resultfmt.c src/core/resultfmt.h \
 src/core/results.h src/core/shapes.h src/core/store.h \
 src/backend/observe.h src/backend/device.h src/core/problem.h \
 src/base/types.h /usr/include/cjson/cJSON.h src/base/textbuf.h \
 src/base/util.h
src/core/resultfmt.h:
src/core/results.h:
src/core/shapes.h:
src/core/store.h:
src/backend/observe.h:
src/backend/device.h:
src/core/problem.h:
src/base/types.h:
/usr/include/cjson/cJSON.h:
src/base/textbuf.h:
src/base/util.h:
