#include "backend/backend.h"

#include <string.h>

const Backend *Backend_byName(const char *name) {
   if (!strcmp(name, "opencl") || !strcmp(name, "cl"))
      return Backend_opencl();
   if (!strcmp(name, "cuda"))
      return Backend_cuda();
   if (!strcmp(name, "hip"))
      return Backend_hip();
   return NULL;
}

const char *Backend_statusName(BackendStatus s) {
   switch (s) {
   case BACKEND_OK: return "ok";
   case BACKEND_ERR_NO_RUNTIME: return "no runtime";
   case BACKEND_ERR_DEVICE: return "device error";
   case BACKEND_ERR_COMPILE: return "compile error";
   case BACKEND_ERR_OUT_OF_MEMORY: return "out of memory";
   case BACKEND_ERR_LAUNCH: return "launch failed";
   case BACKEND_ERR_TIMEOUT: return "timed out";
   default: return "error";
   }
}

const char *DeviceType_name(DeviceType t) {
   switch (t) {
   case DEVICE_GPU: return "GPU";
   case DEVICE_CPU: return "CPU";
   case DEVICE_ACCELERATOR: return "accelerator";
   default: return "other";
   }
}
