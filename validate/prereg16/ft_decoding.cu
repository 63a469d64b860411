// Pre-registered public kernel (not written for memsim): NVIDIA/FasterTransformer
// FasterTransformer's decoding helpers: decodingInitialize (a grid-stride loop over batch x beam:
// 1-byte `finished` stores, sequence lengths, word ids gathered by batch, cumulative log-probs),
// embeddingLookupPosEncoding (a block a token of min(hidden, 1024) threads striding over a grid
// of min(tokens, 65536) blocks: embedding rows gathered by token id, scaled, plus the position
// encoding row of the step), paddingEmbedding / paddingEmbeddingKernel (a vocabulary-padded copy
// of the embedding, zeros past the vocabulary), minus/plusUnfinishedSeqlen (launched with the
// host's grid and block swapped: <<<min(256, n), ceil(n / 256)>>>, 1-byte flag loads) and
// plusScalar; copied for memsim's sixteenth pre-registered set (validate/prereg16_cases.py).
//
// Repository: NVIDIA/FasterTransformer, commit df4a7534860137e060e18d2ebf019906120ea204
// Paths: src/fastertransformer/kernels/decoding_kernels.cu (this commit);
//        HALF_FLT_MAX from src/fastertransformer/kernels/reduce_kernel_utils.cuh:70
// Licence: Apache-2.0 (the repository's LICENSE; text in validate/prereg16/LICENSES.md)
// Notice of the source file: "Copyright (c) 2020-2023, NVIDIA CORPORATION.  All rights reserved.", licensed under
//   the Apache License, Version 2.0
//
// Edits, all outside the kernel bodies, which are unchanged (each kernel's signature and body
// copied whole under `// --- path:lines`):
// - the #include lines are dropped (decoding_kernels.h, cuda_type_utils.cuh, cuda_utils.h: host
//   code); <cuda_fp16.h> included for the half instances; int64_t defined as <cstdint>'s;
//   <cuda/std/type_traits>' is_same made std's by one using-declaration (decodingInitialize's
//   std::is_same; <type_traits> is the host's); HALF_FLT_MAX defined as reduce_kernel_utils.cuh
//   defines it (the file's own definition is commented out, line 24);
// - the host launchers (invoke*) are left out: their launch shapes are in
//   validate/prereg16_cases.py; the templates are instantiated explicitly at the end for float
//   and half (plusScalar for int), as the file's launcher instances are (bfloat16 is not);
// - embeddingLookup (its pPromptTuningParam argument holds device pointers in a struct),
//   gatherTree (a struct of pointers) and finalize (reduce_kernel_utils.cuh's block reductions,
//   not taken for time) are left out.
#include <cuda_fp16.h>
#include <cuda/std/type_traits>
typedef long long int64_t;   // <cstdint>'s
namespace std { using cuda::std::is_same; }   // <type_traits>' std::is_same, as libcu++ gives it

namespace fastertransformer {

static const float HALF_FLT_MAX = 65504.F;   // src/fastertransformer/kernels/reduce_kernel_utils.cuh:70

// --- src/fastertransformer/kernels/decoding_kernels.cu:26-47
template<typename T>
__global__ void decodingInitialize(bool*      finished,
                                   int*       sequence_length,
                                   int*       word_ids,
                                   T*         cum_log_probs,
                                   const int* sentence_ids,
                                   const int  batch_size,
                                   const int  beam_width,
                                   const int  max_input_length)
{
    const bool IS_FP16   = std::is_same<T, half>::value;
    const T    MAX_T_VAL = (IS_FP16) ? (T)HALF_FLT_MAX : (T)1e20f;  // BF16 and FP32 have the same dynamic range
    for (int index = blockIdx.x * blockDim.x + threadIdx.x; index < batch_size * beam_width;
         index += blockDim.x * gridDim.x) {
        finished[index]        = false;
        sequence_length[index] = max_input_length;
        if (word_ids != nullptr) {
            word_ids[index] = sentence_ids[index / beam_width];
        }
        cum_log_probs[index] = (index % beam_width == 0) ? (T)0.0f : (T)-MAX_T_VAL;
    }
}

// --- src/fastertransformer/kernels/decoding_kernels.cu:100-141
template<typename T>
__global__ void embeddingLookupPosEncoding(T*             from_tensor,
                                           const T*       embedding_table,
                                           const T*       position_encoding,
                                           const int*     all_ids,
                                           const int*     padding_count,
                                           const int*     input_lengths,
                                           const int      local_token_num,
                                           const int64_t  hidden_units,
                                           const int      step,
                                           const int      max_input_length,
                                           const int      token_num,
                                           const int      ite,
                                           const T        scale)
{
    // 1. lookup from embedding table
    // 2. multiply scale
    // 3. add the position encoding
    const int id_offset = step * token_num + ite * local_token_num;

    const bool use_padding_count = padding_count != nullptr;
    const bool use_input_len     = input_lengths != nullptr;

    for (int64_t index = blockIdx.x * blockDim.x + threadIdx.x; index < local_token_num * hidden_units;
         index += blockDim.x * gridDim.x) {
        const int row_index   = index / hidden_units;
        const int col_index   = index % hidden_units;
        int       step_offset = step;
        if (use_padding_count) {
            step_offset -= padding_count[row_index];
        }
        else if (use_input_len) {
            step_offset -= max_input_length - input_lengths[row_index];
        }
        step_offset *= hidden_units;

        T val = embedding_table[all_ids[id_offset + row_index] * hidden_units + col_index] * scale;
        val   = val + position_encoding[step_offset + col_index];

        from_tensor[index] = val;
    }
}

// --- src/fastertransformer/kernels/decoding_kernels.cu:315-344
template<typename T>
__global__ void paddingEmbedding(T*            padded_embedding_kernel,
                                 T*            padded_embedding_bias,
                                 const T*      embedding_kernel,
                                 const T*      embedding_bias,
                                 const int64_t hidden_unit,
                                 const int64_t vocab_size,
                                 const int64_t vocab_size_padded)
{
    for (int64_t id = threadIdx.x + blockIdx.x * blockDim.x; id < hidden_unit * vocab_size_padded;
         id += blockDim.x * gridDim.x) {
        int row_id = id / vocab_size_padded;
        int col_id = id % vocab_size_padded;
        if (col_id < vocab_size) {
            padded_embedding_kernel[id] = embedding_kernel[row_id * vocab_size + col_id];
        }
        else {
            padded_embedding_kernel[id] = (T)(0.0f);
        }
    }

    for (int id = threadIdx.x + blockIdx.x * blockDim.x; id < vocab_size_padded; id += blockDim.x * gridDim.x) {
        if (id < vocab_size) {
            padded_embedding_bias[id] = embedding_bias[id];
        }
        else {
            padded_embedding_bias[id] = (T)(0.0f);
        }
    }
}

// --- src/fastertransformer/kernels/decoding_kernels.cu:395-413
template<typename T>
__global__ void paddingEmbeddingKernel(T*        padded_embedding_kernel,
                                       const T*  embedding_kernel,
                                       const int hidden_unit,
                                       const int vocab_size,
                                       const int vocab_size_padded)
{
    for (int id = threadIdx.x + blockIdx.x * blockDim.x; id < hidden_unit * vocab_size_padded;
         id += blockDim.x * gridDim.x) {
        int row_id = id / hidden_unit;
        int col_id = id % hidden_unit;
        if (row_id < vocab_size) {
            padded_embedding_kernel[id] = embedding_kernel[row_id * hidden_unit + col_id];
        }
        else {
            padded_embedding_kernel[id] = (T)(0.0f);
        }
    }
}

// --- src/fastertransformer/kernels/decoding_kernels.cu:648-655
__global__ void minusUnfinishedSeqlen(int* sequence_lengths, const bool* finished, const int token_num)
{
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < token_num; i += blockDim.x * gridDim.x) {
        if (finished[i] == false) {
            sequence_lengths[i] -= 1;
        }
    }
}

// --- src/fastertransformer/kernels/decoding_kernels.cu:664-671
__global__ void plusUnfinishedSeqlen(int* sequence_lengths, const bool* finished, const int token_num)
{
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < token_num; i += blockDim.x * gridDim.x) {
        if (finished[i] == false) {
            sequence_lengths[i] += 1;
        }
    }
}

// --- src/fastertransformer/kernels/decoding_kernels.cu:680-686
template<typename T>
__global__ void plusScalar(T* buf, const T val, const int size)
{
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < size; i += blockDim.x * gridDim.x) {
        buf[i] += val;
    }
}

// explicit instances (float and half, plusScalar for int, as the file's launcher instances)
template __global__ void decodingInitialize<float>(bool*, int*, int*, float*, const int*, const int, const int, const int);
template __global__ void decodingInitialize<half>(bool*, int*, int*, half*, const int*, const int, const int, const int);
template __global__ void embeddingLookupPosEncoding<float>(float*, const float*, const float*, const int*, const int*,
                                                           const int*, const int, const int64_t, const int, const int,
                                                           const int, const int, const float);
template __global__ void embeddingLookupPosEncoding<half>(half*, const half*, const half*, const int*, const int*,
                                                          const int*, const int, const int64_t, const int, const int,
                                                          const int, const int, const half);
template __global__ void paddingEmbedding<float>(float*, float*, const float*, const float*, const int64_t, const int64_t,
                                                 const int64_t);
template __global__ void paddingEmbedding<half>(half*, half*, const half*, const half*, const int64_t, const int64_t,
                                                const int64_t);
template __global__ void paddingEmbeddingKernel<float>(float*, const float*, const int, const int, const int);
template __global__ void paddingEmbeddingKernel<half>(half*, const half*, const int, const int, const int);
template __global__ void plusScalar<int>(int*, const int, const int);

}  // namespace fastertransformer
