// Pre-registered public kernel (not written for memsim): NVIDIA/FasterTransformer
// FasterTransformer's BERT preprocessing kernels: the padding offsets of a batch of sequences
// built serially by one thread (getPaddingOffsetAndCuSeqLensKernel, launched <<<1, 1>>>), the
// TensorRT fused-MHA offsets built by thread 0 of one block of 256 into shared memory, the
// [batch, 1, seq, seq] encoder attention mask (a block a sequence of 256 threads, float or half
// stores), the remove/rebuild padding copies (a block a token of 256, rows gathered/scattered by
// the padding offsets) and T5's relative attention bias (a block a head, bucket indices from
// logf, gathers from a small table); copied for memsim's sixteenth pre-registered set
// (validate/prereg16_cases.py).
//
// Repository: NVIDIA/FasterTransformer, commit df4a7534860137e060e18d2ebf019906120ea204
// Paths: src/fastertransformer/kernels/bert_preprocess_kernels.cu (this commit)
// Licence: Apache-2.0 (the repository's LICENSE; text in validate/prereg16/LICENSES.md)
// Notice of the source file: "Copyright (c) 2019-2023, NVIDIA CORPORATION.  All rights reserved.", licensed under
//   the Apache License, Version 2.0
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body
// copied whole under `// --- path:lines`):
// - the #include lines are dropped (bert_preprocess_kernels.h, cuda_bf16_fallbacks.cuh,
//   cuda_fp8_utils.h, cuda_type_utils.cuh: host code and types these kernels do not use) and
//   <cuda_fp16.h> included for the half instances;
// - the host launchers (invoke*) are left out: their launch shapes are in
//   validate/prereg16_cases.py; the kernel templates are instantiated explicitly at the end for
//   float and half, as the file's explicit instances of the launchers are (its bfloat16 and fp8
//   instances are not);
// - the second getTrtPaddingOffsetKernel overload (keeping the padding, lines 152-173) and the
//   fp8 kernels (getLastTokenDequantize, quantizeMatrixRebuildPadding) are left out: an overloaded
//   kernel name cannot be named alone, and fp8 needs <cuda_fp8.h> types this set does not launch.
#include <cuda_fp16.h>

namespace fastertransformer {

// --- src/fastertransformer/kernels/bert_preprocess_kernels.cu:24-52
__global__ void getPaddingOffsetAndCuSeqLensKernel(size_t*    h_valid_word_num,
                                                   int*       tmp_mask_offset,
                                                   int*       cu_seqlens,
                                                   const int* sequence_length,
                                                   const int  batch_size,
                                                   const int  max_seq_len)
{
    // do cumulated sum
    int        total_seq_len        = 0;
    int        cum_offset           = 0;
    int        index                = 0;
    const bool calculate_cu_seqlens = cu_seqlens != nullptr;
    for (int i = 0; i < batch_size; i++) {
        const int seq_len = sequence_length[i];
        if (calculate_cu_seqlens) {
            cu_seqlens[i] = total_seq_len;
        }
        for (int j = 0; j < seq_len; j++) {
            tmp_mask_offset[index] = cum_offset;
            index++;
        }
        cum_offset += max_seq_len - seq_len;
        total_seq_len += seq_len;
    }
    if (calculate_cu_seqlens) {
        cu_seqlens[batch_size] = total_seq_len;
    }
    h_valid_word_num[0] = (size_t)total_seq_len;
}

// --- src/fastertransformer/kernels/bert_preprocess_kernels.cu:71-90
template<typename T>
__global__ void buildEncoderAttentionMaskKernel(T* attention_mask, const int* sequence_lengths, const int max_seq_len)
{
    // sequence_lengths: [batch_size]
    // attention_mask: [batch_size, 1, max_seq_len, max_seq_len]
    attention_mask += blockIdx.x * max_seq_len * max_seq_len;
    const int length = sequence_lengths[blockIdx.x];
    for (int i = threadIdx.x; i < max_seq_len * max_seq_len; i += blockDim.x) {
        // int row_id = i / max_seq_len;
        int col_id = i % max_seq_len;
        // if (row_id < length && col_id < length) {
        // TODO (bhsueh) check this modification is ok or not on other rmodel
        if (col_id < length) {
            attention_mask[i] = (T)(1.0f);
        }
        else {
            attention_mask[i] = (T)(0.0f);
        }
    }
}

// --- src/fastertransformer/kernels/bert_preprocess_kernels.cu:124-141
__global__ void getTrtPaddingOffsetKernel(int* trt_mha_padding_offset, const int* sequence_length, const int batch_size)
{
    // use for get tensorrt fused mha padding offset
    // when we remove the padding

    extern __shared__ int tmp_offset[];
    if (threadIdx.x == 0) {
        tmp_offset[0] = 0;
        for (int i = 0; i < batch_size; i++) {
            tmp_offset[i + 1] = tmp_offset[i] + sequence_length[i];
        }
    }
    __syncthreads();

    for (int i = threadIdx.x; i < batch_size + 1; i += blockDim.x) {
        trt_mha_padding_offset[i] = tmp_offset[i];
    }
}

// --- src/fastertransformer/kernels/bert_preprocess_kernels.cu:185-196
template<typename T>
__global__ void rebuild_sequence_length_padding(const T* src, T* dst, const int* padding_offset, const int n)
{
    const int tid        = threadIdx.x;
    const int bid        = blockIdx.x;
    const int dst_seq_id = bid + padding_offset[bid];
    const int src_seq_id = bid;

    for (int i = tid; i < n; i += blockDim.x) {
        dst[dst_seq_id * n + i] = src[src_seq_id * n + i];
    }
}

// --- src/fastertransformer/kernels/bert_preprocess_kernels.cu:240-251
template<typename T>
__global__ void remove_padding(T* tgt, const T* src, const int* padding_offset, const int n)
{
    const int tid        = threadIdx.x;
    const int bid        = blockIdx.x;
    const int src_seq_id = bid + padding_offset[bid];
    const int tgt_seq_id = bid;

    for (int i = tid; i < n; i += blockDim.x) {
        tgt[tgt_seq_id * n + i] = src[src_seq_id * n + i];
    }
}

// --- src/fastertransformer/kernels/bert_preprocess_kernels.cu:290-337
template<typename T>
__global__ void buildRelativeAttentionBias(T*         relative_attention_bias,
                                           const T*   relative_attention_bias_table,
                                           const int  head_num,
                                           const int  seq_len,
                                           const int  num_bucket,
                                           const bool is_bidirectional,
                                           const int  max_distance)
{

    const int head_id = blockIdx.x;
    for (int seq_id = threadIdx.x; seq_id < seq_len * seq_len; seq_id += blockDim.x) {
        int row_id = seq_id / seq_len;
        int col_id = seq_id % seq_len;

        int relative_position = col_id - row_id;

        int relative_buckets = 0;
        int tmp_num_bucket   = num_bucket;
        if (is_bidirectional) {
            tmp_num_bucket /= 2;
            if (relative_position > 0) {
                relative_buckets += tmp_num_bucket;
            }
            else {
                relative_position *= -1;
            }
        }
        else {
            relative_position = abs(relative_position);
        }

        int  max_exact = tmp_num_bucket / 2;
        bool is_small  = relative_position < max_exact;

        int relative_position_if_large =
            max_exact
            + (int)(logf(relative_position * 1.0f / max_exact) / logf((float)max_distance / max_exact)
                    * (tmp_num_bucket - max_exact));

        relative_position_if_large = min(relative_position_if_large, tmp_num_bucket - 1);

        relative_buckets += is_small ? relative_position : relative_position_if_large;

        relative_attention_bias[head_id * seq_len * seq_len + seq_id] =
            relative_attention_bias_table[head_id * num_bucket + relative_buckets];
    }
}

// explicit instances (float and half, as the file's launcher instances)
template __global__ void buildEncoderAttentionMaskKernel<float>(float*, const int*, const int);
template __global__ void buildEncoderAttentionMaskKernel<half>(half*, const int*, const int);
template __global__ void rebuild_sequence_length_padding<float>(const float*, float*, const int*, const int);
template __global__ void rebuild_sequence_length_padding<half>(const half*, half*, const int*, const int);
template __global__ void remove_padding<float>(float*, const float*, const int*, const int);
template __global__ void remove_padding<half>(half*, const half*, const int*, const int);
template __global__ void buildRelativeAttentionBias<float>(float*, const float*, const int, const int, const int, const bool, const int);
template __global__ void buildRelativeAttentionBias<half>(half*, const half*, const int, const int, const int, const bool, const int);

}  // namespace fastertransformer
