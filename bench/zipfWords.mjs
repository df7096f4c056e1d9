// Deterministic words for the search benches: the same data and queries every run.

/** A deterministic pseudo-random sequence in [0, 1) from `seed`. */
export function random(seed) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

const syllables = ['ka', 'lo', 'mi', 'ne', 'ru', 'ta', 'vo', 'shi', 'ben', 'dor', 'fel', 'gra', 'hun', 'jat', 'kel', 'lum', 'mor', 'nix', 'pel', 'qua'];

/** `size` distinct made-up words, and `zipf(rand)`: a word drawn Zipf-like (word i with weight 1/(i+1)). */
export function zipfVocabulary(size) {
  const words = Array.from({ length: size }, (_, i) => {
    let w = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length)) w += syllables[n % syllables.length];
    return w;
  });
  const zipf = (rand) => words[Math.min(size - 1, Math.floor(Math.exp(rand() * Math.log(size + 1)) - 1))];
  return { words, zipf };
}
