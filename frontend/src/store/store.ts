import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { api } from '../api/api';
import auth from './authSlice';
import ui from './uiSlice';

const rootReducer = combineReducers({ auth, ui, [api.reducerPath]: api.reducer });
export type RootState = ReturnType<typeof rootReducer>;

export function makeStore(preloaded?: Partial<RootState>) {
  return configureStore({
    reducer: rootReducer,
    preloadedState: preloaded as RootState | undefined,
    middleware: (getDefault) => getDefault().concat(api.middleware),
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
