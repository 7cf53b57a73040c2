import { createBrowserRouter } from 'react-router'
import { routes } from '@/app/route-table'

// Created at import, so the first route's chunk starts loading while main.tsx waits for translations.
export const router = createBrowserRouter(routes)
