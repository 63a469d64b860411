// Pre-registered public kernel (not written for memsim): zjin-lcf/HeCBench
// files: src/bitonic-sort-cuda/main.cu
// commit f27000a5188f8ac79bd43fc95a1b3f890c18823d (https://github.com/zjin-lcf/HeCBench)
// Licence: BSD-3-Clause (HeCBench's LICENSE, Copyright (c) 2020 Argonne National Laboratory, 2020- Oak Ridge National Laboratory (Zheming Jin)); the file's own notice: Copyright (c) 2020 Intel Corporation, SPDX-License-Identifier: MIT.
//
// Edits (no kernel body changed):
// - src/bitonic-sort-cuda/main.cu: only lines 45-81 kept (the kernels and the device code and macros they use); the rest is host code


// ---- from src/bitonic-sort-cuda/main.cu, lines 45-81

__global__
void bitonic_sort (const int seq_len, const int two_power, int *a)
{
  int i = blockDim.x * blockIdx.x + threadIdx.x;

  // Assign the bitonic sequence number.
  int seq_num = i / seq_len;

  // Variable used to identified the swapped element.
  int swapped_ele = -1;

  // Because the elements in the first half in the bitonic
  // sequence may swap with elements in the second half,
  // only the first half of elements in each sequence is
  // required (seq_len/2).
  int h_len = seq_len / 2;

  if (i < (seq_len * seq_num) + h_len) swapped_ele = i + h_len;

  // Check whether increasing or decreasing order.
  int odd = seq_num / two_power;

  // Boolean variable used to determine "increasing" or
  // "decreasing" order.
  bool increasing = ((odd % 2) == 0);

  // Swap the elements in the bitonic sequence if needed
  if (swapped_ele != -1) {
    if (((a[i] > a[swapped_ele]) && increasing) ||
	((a[i] < a[swapped_ele]) && !increasing)) {
      int temp = a[i];
      a[i] = a[swapped_ele];
      a[swapped_ele] = temp;
    }
  }
}

