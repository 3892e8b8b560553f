/* The standalone SVG charts' prolog and ending (svg.h). */
#include "base/svg.h"

void Svg_begin(TextBuf *t, int width, int height, const char *title) {
   TextBuf_put(t, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                  "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"13\">\n",
               width, height, width, height);
   TextBuf_put(t, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
   if (!title) /* the caller draws its own (the ladder wraps a long one) */
      return;
   TextBuf_put(t, "<text x=\"10\" y=\"22\" font-size=\"16\" font-weight=\"bold\">");
   TextBuf_putXml(t, title);
   TextBuf_put(t, "</text>\n");
}

char *Svg_finish(TextBuf *t) {
   TextBuf_put(t, "</svg>\n");
   return TextBuf_finish(t);
}
