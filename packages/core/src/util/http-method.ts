/** The HTTP methods the kit's routers serve (the market's and the service's route tables). */
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
