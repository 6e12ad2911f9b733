// A React 19 page that uses the elements as the lesson does: it must type-check.
import type {} from 'transformer-block/jsx';

export const page = (
  <main>
    <tb-masks tokens={3} seed="2" />
    <tb-number model="gpt2-small" value="total_params" format="compact" />
    <tb-anatomy model='{"model_type": "llama", "hidden_size": 64}' seq-len="8" />
    <tb-param-table model="llama3-8b" />
    <tb-train steps={600} norm="pre" />
  </main>
);
