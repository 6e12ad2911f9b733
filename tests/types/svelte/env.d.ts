// How a Svelte project takes the elements' types: once, in any .d.ts of the project.
import type {} from 'transformer-block/svelte';
