"""The GPU layer, beneath the engines and the models (as GPGPU-Sim's per-GPU configs are read by
both its functional and its timing side): one profile per GPU, every hardware number and fitted
constant with its source, and the one default GPU."""
from .profile import (BANK_BYTES, BANKS, SECTOR_BYTES, DEFAULT_ARCH, DEFAULT_GPU, PROFILE_DIR, Calibration, Fitted, GpcLayout, GpuProfile, ProfileError, SassAbi,
                      default_profile, for_arch, load, load_file, names, sass_abi, sass_arches, save)

__all__ = ["BANK_BYTES", "BANKS", "SECTOR_BYTES", "DEFAULT_ARCH", "DEFAULT_GPU", "PROFILE_DIR", "Calibration", "Fitted", "GpcLayout", "GpuProfile", "ProfileError",
           "SassAbi", "default_profile", "for_arch", "load", "load_file", "names", "sass_abi", "sass_arches", "save"]
