export default {
  'page.models': { other: '共 {count} 个模型，由 WebAssembly 库计算。' },
  'page.libraryFailedPrerendered': '无法加载模型库，因此这些数字是本页构建时算出的，无法更新：{error}',
  'page.libraryFailed': '无法加载模型库，因此本页无法显示其数字：{error}',
};
