import DefaultTheme from 'vitepress/theme';
import 'transformer-block';

export default DefaultTheme;
